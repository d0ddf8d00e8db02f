#define _GNU_SOURCE
#include "CScheduler.h"

#include <errno.h>
#include <sched.h>

int pl_cpu_set_size(void) { return CPU_SETSIZE; }

int pl_set_cpu_affinity(const int *cpus, int count) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < count; i++) {
        if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE) return EINVAL;
        CPU_SET(cpus[i], &set);
    }
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}

int pl_allowed_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -errno;
    int found = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        if (found < capacity) cpus[found] = cpu;
        found++;
    }
    return found;
}
