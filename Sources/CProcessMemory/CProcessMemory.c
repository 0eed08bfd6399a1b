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
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

long hearth_release_unused_code(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return 0;
    executable[length] = 0;
    FILE *maps = fopen("/proc/self/maps", "re");
    if (maps == NULL) return 0;
    long released = 0;
    char line[PATH_MAX + 256];
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long start, end;
        char permissions[8];
        int pathStart = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, permissions, &pathStart) < 3 || pathStart == 0) continue;
        char *path = line + pathStart;
        path[strcspn(path, "\n")] = 0;
        // Only the executable's code: its pages are the file's, never written (no text relocations), so the
        // kernel maps them again from the page cache when they are next used. Writable and RELRO mappings hold
        // relocated data that exists nowhere else and are left alone.
        if (strcmp(permissions, "r-xp") != 0 || strcmp(path, executable) != 0) continue;
        if (madvise((void *)start, end - start, MADV_DONTNEED) == 0) released += (long)(end - start);
    }
    fclose(maps);
    return released;
}
#else
long hearth_release_unused_code(void) {
    return 0;
}
#endif
