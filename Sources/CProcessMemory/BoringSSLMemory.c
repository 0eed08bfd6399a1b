// swift-crypto's BoringSSL allocates through `OPENSSL_memory_alloc`, `OPENSSL_memory_free` and
// `OPENSSL_memory_get_size` when the program defines them (weak symbols in its crypto/mem.cc, documented there for
// exactly this). Hearth defines them to keep scrypt's scratch space (128 · r · N bytes: 16 MiB at Hearth's N = 2^14,
// r = 8) in a few mappings made once and reused, one per hashing thread, instead of blocks that glibc splits, keeps
// and makes anew (131 MB peak in the password benchmark, issue 30). Every other allocation goes to malloc as
// BoringSSL's own would, and every block is wiped when freed, as BoringSSL's own `OPENSSL_free` does.
#include "CProcessMemory.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// A block's header: its size, and where it lives (0: malloc; n > 0: slot n - 1). 16 bytes keep the block aligned as
// malloc's are.
typedef struct {
    size_t size;
    size_t slot;
} block_header;

_Static_assert(sizeof(block_header) == 16, "the header keeps malloc's 16-byte alignment");

// Blocks from 1 MiB to 32 MiB are kept; a larger one (an imported hash's costlier scrypt) is malloc's, which maps and
// unmaps it, so that it does not stay resident.
enum { most_slots = 64, large_block = 1 << 20, largest_kept = 32 << 20 };

typedef struct {
    void *mapping;     // header + capacity bytes, page-rounded; NULL when the slot is unused
    size_t capacity;   // bytes after the header
    int busy;
} slot;

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static slot slots[most_slots];
static int slot_limit = 0;

int hearth_keep_large_crypto_buffers(int count) {
    if (count < 0) count = 0;
    if (count > most_slots) count = most_slots;
    pthread_mutex_lock(&slots_lock);
    slot_limit = count;
    pthread_mutex_unlock(&slots_lock);
    return count;
}

static void wipe(void *bytes, size_t count) {
    // A store the compiler may not remove: the block held key material.
    memset(bytes, 0, count);
    __asm__ __volatile__("" : : "r"(bytes) : "memory");
}

static size_t mapping_length(size_t capacity) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t length = sizeof(block_header) + capacity;
    return (length + page - 1) / page * page;
}

// A slot's block for `size` bytes, or NULL when every slot is busy (the caller then uses malloc).
static void *slot_block(size_t size) {
    void *result = NULL;
    pthread_mutex_lock(&slots_lock);
    int chosen = -1;
    // A free slot big enough; else an unused one to map; else a free one to map again, bigger.
    for (int index = 0; index < slot_limit; index++) {
        if (!slots[index].busy && slots[index].mapping != NULL && slots[index].capacity >= size) {
            chosen = index;
            break;
        }
    }
    if (chosen < 0) {
        for (int index = 0; index < slot_limit && chosen < 0; index++) {
            if (slots[index].mapping == NULL) chosen = index;
        }
        for (int index = 0; index < slot_limit && chosen < 0; index++) {
            if (!slots[index].busy) chosen = index;
        }
        if (chosen >= 0) {
            slot *growing = &slots[chosen];
            if (growing->mapping != NULL) munmap(growing->mapping, mapping_length(growing->capacity));
            growing->mapping = mmap(NULL, mapping_length(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (growing->mapping == MAP_FAILED) {
                growing->mapping = NULL;
                growing->capacity = 0;
                chosen = -1;
            } else {
                growing->capacity = mapping_length(size) - sizeof(block_header);
            }
        }
    }
    if (chosen >= 0) {
        slots[chosen].busy = 1;
        block_header *header = slots[chosen].mapping;
        header->size = size;
        header->slot = (size_t)chosen + 1;
        result = header + 1;
    }
    pthread_mutex_unlock(&slots_lock);
    return result;
}

int hearth_release_kept_crypto_buffers(void) {
    int released = 0;
    pthread_mutex_lock(&slots_lock);
    for (int index = 0; index < most_slots; index++) {
        if (!slots[index].busy && slots[index].mapping != NULL) {
            munmap(slots[index].mapping, mapping_length(slots[index].capacity));
            slots[index].mapping = NULL;
            slots[index].capacity = 0;
            released++;
        }
    }
    pthread_mutex_unlock(&slots_lock);
    return released;
}

void *OPENSSL_memory_alloc(size_t size) {
    if (size >= large_block && size <= largest_kept) {
        void *block = slot_block(size);
        if (block != NULL) return block;
    }
    if (size > SIZE_MAX - sizeof(block_header)) return NULL;
    block_header *header = malloc(sizeof(block_header) + size);
    if (header == NULL) return NULL;
    header->size = size;
    header->slot = 0;
    return header + 1;
}

void OPENSSL_memory_free(void *pointer) {
    if (pointer == NULL) return;
    block_header *header = (block_header *)pointer - 1;
    size_t slot_number = header->slot;
    wipe(pointer, header->size);
    if (slot_number == 0) {
        wipe(header, sizeof(block_header));
        free(header);
        return;
    }
    pthread_mutex_lock(&slots_lock);
    slots[slot_number - 1].busy = 0;
    pthread_mutex_unlock(&slots_lock);
}

size_t OPENSSL_memory_get_size(void *pointer) {
    if (pointer == NULL) return 0;
    return ((block_header *)pointer - 1)->size;
}
