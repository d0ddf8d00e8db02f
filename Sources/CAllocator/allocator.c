#include "CAllocator.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc systems

#ifdef __GLIBC__
#include <malloc.h>
#endif

int pl_keep_freed_memory(size_t bytes) {
#ifdef __GLIBC__
    // glibc refuses mmap thresholds above 32 MiB on 64-bit systems (4 MiB x sizeof(long)).
    size_t ceiling = (size_t)4 * 1024 * 1024 * sizeof(long);
    int limit = (int)(bytes < ceiling ? bytes : ceiling);
    return mallopt(M_MMAP_THRESHOLD, limit) == 1 && mallopt(M_TRIM_THRESHOLD, 2 * limit) == 1;
#else
    (void)bytes;
    return 0;
#endif
}
