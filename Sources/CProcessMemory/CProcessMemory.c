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

#if defined(__linux__)
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

long hearth_release_unused_code(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return 0;
    executable[length] = 0;
    FILE *maps = fopen("/proc/self/smaps", "re");
    if (maps == NULL) return 0;
    long released = 0;
    // The mapping whose fields are being read, when it is the executable's code; 0 otherwise.
    unsigned long start = 0, end = 0;
    char line[PATH_MAX + 256];
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long first, last;
        char permissions[8];
        int pathStart = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &first, &last, permissions, &pathStart) >= 3 && pathStart > 0) {
            char *path = line + pathStart;
            path[strcspn(path, "\n")] = 0;
            bool code = strcmp(permissions, "r-xp") == 0 && strcmp(path, executable) == 0;
            start = code ? first : 0;
            end = code ? last : 0;
            continue;
        }
        long anonymous;
        if (start == 0 || sscanf(line, "Anonymous: %ld kB", &anonymous) != 1) continue;
        // Only code whose every page is still the file's (none written: no text relocation, no breakpoint), which
        // the kernel maps again from the page cache at its next use. Writable and RELRO mappings hold relocated
        // data that exists nowhere else and are never touched.
        if (anonymous == 0 && madvise((void *)start, end - start, MADV_DONTNEED) == 0) released += (long)(end - start);
        start = 0;
    }
    fclose(maps);
    return released;
}
#else
long hearth_release_unused_code(void) {
    return 0;
}
#endif
