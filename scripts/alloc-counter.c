// A heap allocation counter for scripts/bench-allocs.sh, loaded with LD_PRELOAD.
//
// Counts every call that allocates (malloc, calloc, realloc, posix_memalign, aligned_alloc,
// memalign, valloc) on every thread of the process, with the bytes asked for, and forwards to
// glibc's own allocator. A program reads the totals with `endpoint_allocation_counts`, found by
// `dlsym` when this library is loaded (TransportBenchmarks `--only allocs`).
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t calls;
static uint64_t bytes;

static inline void count(size_t size) {
  __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&bytes, size, __ATOMIC_RELAXED);
}

void endpoint_allocation_counts(uint64_t *callsOut, uint64_t *bytesOut) {
  *callsOut = __atomic_load_n(&calls, __ATOMIC_RELAXED);
  *bytesOut = __atomic_load_n(&bytes, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
  count(size);
  return __libc_malloc(size);
}

void *calloc(size_t number, size_t size) {
  count(number * size);
  return __libc_calloc(number, size);
}

void *realloc(void *pointer, size_t size) {
  count(size);
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  count(size);
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count(size);
  return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
  count(size);
  return __libc_memalign(4096, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  count(size);
  void *pointer = __libc_memalign(alignment, size);
  if (!pointer) return 12;  // ENOMEM
  *result = pointer;
  return 0;
}
