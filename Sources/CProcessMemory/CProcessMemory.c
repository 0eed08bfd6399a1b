#include "CProcessMemory.h"

// Any C library header: glibc's define __GLIBC__ (through <features.h>).
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int hearth_tune_allocator(int arenas, int mmapThreshold) {
    int applied = mallopt(M_ARENA_MAX, arenas);
    applied &= mallopt(M_MMAP_THRESHOLD, mmapThreshold);
    return applied;
}
#else
int hearth_tune_allocator(int arenas, int mmapThreshold) {
    (void)arenas;
    (void)mmapThreshold;
    return 0;
}
#endif
