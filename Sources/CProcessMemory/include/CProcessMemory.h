#ifndef HEARTH_CPROCESSMEMORY_H
#define HEARTH_CPROCESSMEMORY_H

/// Caps glibc's allocator at `arenas` arenas: without a cap each of the server's many pool threads may get one of its
/// own, and each keeps what it freed. Large blocks (scrypt's 16 MiB) stay under glibc's own rule: the first is mapped
/// and unmapped, after which the threshold rises and they are reused from the arenas without new page faults.
/// Returns 1 when applied, 0 where the C library is not glibc.
int hearth_tune_allocator(int arenas);

/// Gives the free memory of every arena back to the system (`malloc_trim`): what the start-up's measurements (a
/// password hash's cost, the signing libraries') allocated and freed. Returns 1 when some was released.
int hearth_release_free_memory(void);

/// Keeps up to `count` of swift-crypto's large scratch blocks (1 MiB and more: scrypt's) in mappings made once and
/// reused, wiped between uses, instead of glibc's heap; with every kept block busy, a further one comes from malloc.
/// 0 (the default) keeps none. Give it the number of threads that hash passwords. Returns the count applied (at most 64).
int hearth_keep_large_crypto_buffers(int count);

/// Unmaps the kept blocks that are not in use (the start-up's cost measurement made one): a server that hashes no
/// password keeps none. Returns how many were released.
int hearth_release_kept_crypto_buffers(void);

/// Drops the executable's code pages from the process's memory map once start-up is done (`madvise(MADV_DONTNEED)`
/// on its `r-xp` mappings, those whose pages are all still the file's): the code it ran once (relocation, the
/// start-up's measurements, migrations) stops counting in its RSS, and what requests use is mapped again from the
/// page cache at its next use. Returns the bytes of the mappings advised (0 off Linux).
long hearth_release_unused_code(void);

#endif
