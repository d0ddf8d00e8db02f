// glibc's allocator tuning, which Swift's Glibc module does not expose (malloc.h).
#ifndef PLANTLEAF_CALLOCATOR_H
#define PLANTLEAF_CALLOCATOR_H

#include <stddef.h>

// Serve allocations up to `bytes` (at most 32 MiB on 64-bit glibc) from the heap and keep that much freed memory in the process.
// A batch allocates the same image buffers for every photo; without this, glibc maps and unmaps
// them (or trims the heap) each time and every fresh page costs a fault. Returns 1 when the
// thresholds were set, 0 outside glibc.
int pl_keep_freed_memory(size_t bytes);

#endif
