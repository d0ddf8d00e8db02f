// Architectures without a kernel set here: only the portable Swift loops run.
#if !defined(__x86_64__) && !defined(__aarch64__)

#include "CResample.h"

int32_t resample_cpu_kernels(void) { return 0; }

#endif
