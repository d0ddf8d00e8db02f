// glibc's CPU affinity, whose cpu_set_t is handled through macros (CPU_SET, CPU_ISSET) Swift
// cannot call.
#ifndef PLANTLEAF_CSCHEDULER_H
#define PLANTLEAF_CSCHEDULER_H

// The highest CPU number the affinity calls here can name, plus one (glibc's CPU_SETSIZE).
int pl_cpu_set_size(void);

// Restricts the calling thread, and every thread it starts from then on, to the `count` CPUs
// in `cpus` (each below pl_cpu_set_size()). Returns 0, or the errno of sched_setaffinity
// (EINVAL: none of them is available to this process), or EINVAL for a number out of range.
int pl_set_cpu_affinity(const int *cpus, int count);

// Writes the CPUs the calling thread may run on, in ascending order, into `cpus` (room for
// `capacity`). Returns how many there are (which may exceed `capacity`), or -errno.
int pl_allowed_cpus(int *cpus, int capacity);

#endif
