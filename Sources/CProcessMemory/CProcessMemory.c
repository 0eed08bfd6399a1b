#include "CProcessMemory.h"

// Any C library header: glibc's define __GLIBC__ (through <features.h>).
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int hearth_tune_allocator(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

int hearth_release_free_memory(void) {
    return malloc_trim(0);
}
#else
int hearth_tune_allocator(int arenas) {
    (void)arenas;
    return 0;
}

int hearth_release_free_memory(void) {
    return 0;
}
#endif
