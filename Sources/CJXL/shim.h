#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
#include <stdlib.h>
#include <string.h>

// A memory budget for libjxl: a JxlMemoryManager whose allocations are counted, and refused (NULL, which libjxl turns
// into an error) once the bytes in use would pass the cap. Allocations come from the calling thread and from libjxl's
// worker threads, hence the atomic counter. Each block carries its size in a 16-byte header (keeping malloc's
// alignment), since libjxl's free function is given only the address.
//
// libjxl 0.7 (Debian 12) allocates only its decoder and runner objects through the manager; its image planes go
// through plain malloc, which is why the decoder also checks those planes' size from the header against the same cap.
// From libjxl 0.11 on every allocation, the planes included, goes through it.
typedef struct {
    size_t used;
    size_t peak;
    size_t cap;
    int refused;
} wi_jxl_budget;

static void *wi_jxl_budget_alloc(void *opaque, size_t size) {
    wi_jxl_budget *budget = (wi_jxl_budget *)opaque;
    size_t total = size + 16;
    if (total < size) {
        __atomic_store_n(&budget->refused, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    size_t used = __atomic_add_fetch(&budget->used, total, __ATOMIC_RELAXED);
    if (used > budget->cap || used < total) {
        __atomic_sub_fetch(&budget->used, total, __ATOMIC_RELAXED);
        __atomic_store_n(&budget->refused, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    size_t peak = __atomic_load_n(&budget->peak, __ATOMIC_RELAXED);
    while (used > peak && !__atomic_compare_exchange_n(&budget->peak, &peak, used, 1, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED)) {
    }
    unsigned char *block = (unsigned char *)malloc(total);
    if (block == NULL) {
        __atomic_sub_fetch(&budget->used, total, __ATOMIC_RELAXED);
        __atomic_store_n(&budget->refused, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    memcpy(block, &total, sizeof total);
    return block + 16;
}

static void wi_jxl_budget_free(void *opaque, void *address) {
    if (address == NULL) return;
    unsigned char *block = (unsigned char *)address - 16;
    size_t total;
    memcpy(&total, block, sizeof total);
    __atomic_sub_fetch(&((wi_jxl_budget *)opaque)->used, total, __ATOMIC_RELAXED);
    free(block);
}

/// A new budget of `cap` bytes (NULL when out of memory); free it with free() after the decoder and runner it serves.
static inline wi_jxl_budget *wi_jxl_budget_create(size_t cap) {
    wi_jxl_budget *budget = (wi_jxl_budget *)calloc(1, sizeof(wi_jxl_budget));
    if (budget != NULL) budget->cap = cap;
    return budget;
}

/// The manager that allocates from `budget`.
static inline JxlMemoryManager wi_jxl_budget_manager(wi_jxl_budget *budget) {
    JxlMemoryManager manager = {budget, wi_jxl_budget_alloc, wi_jxl_budget_free};
    return manager;
}

/// Whether an allocation was refused (past the cap, or malloc failed).
static inline int wi_jxl_budget_refused(const wi_jxl_budget *budget) {
    return __atomic_load_n(&budget->refused, __ATOMIC_RELAXED);
}

/// The most bytes in use at once so far.
static inline size_t wi_jxl_budget_peak(const wi_jxl_budget *budget) {
    return __atomic_load_n(&budget->peak, __ATOMIC_RELAXED);
}
