#ifndef HEARTH_CPROCESSMEMORY_H
#define HEARTH_CPROCESSMEMORY_H

/// Tunes glibc's allocator for a server whose many pool threads would each get an arena of their own:
/// at most `arenas` arenas, and a fixed `mmapThreshold` (bytes) above which blocks are mapped and unmapped
/// on their own, so that a large buffer (scrypt's 16 MiB) is given back when freed instead of raising the
/// threshold and staying in an arena. Returns 1 when applied, 0 where the C library is not glibc.
int hearth_tune_allocator(int arenas, int mmapThreshold);

#endif
