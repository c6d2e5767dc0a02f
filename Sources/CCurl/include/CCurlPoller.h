// epoll and eventfd for the client's loop, which Swift's Glibc module does not export.
// On platforms without epoll every function fails with ENOSYS.
#ifndef CCURL_POLLER_H
#define CCURL_POLLER_H

// Event bits of ccurl_poll_event.events.
#define CCURL_POLL_EVENT_READ 1
#define CCURL_POLL_EVENT_WRITE 2
#define CCURL_POLL_EVENT_ERROR 4

typedef struct ccurl_poll_event {
  int fd;
  unsigned int events;
} ccurl_poll_event;

// Creates an epoll set holding a new non-blocking eventfd (returned in `wake_fd`) for reading.
// Returns the epoll descriptor, or -1 with errno set.
int ccurl_poller_create(int *wake_fd);
// Watches `fd` for reading and/or writing; with neither, stops watching it.
int ccurl_poller_watch(int poll_fd, int fd, int read, int write);
// Waits up to `timeout_ms` (-1: no limit); returns the number of events written, or -1.
int ccurl_poller_wait(int poll_fd, ccurl_poll_event *events, int capacity, int timeout_ms);
// Wakes a waiting ccurl_poller_wait (any thread).
void ccurl_poller_wake(int wake_fd);
// Clears the wake-up counter.
void ccurl_poller_acknowledge(int wake_fd);
// Names the calling thread (for debuggers and `top -H`).
void ccurl_set_thread_name(const char *name);

// Thread Sanitizer annotations: a lock it cannot see (Synchronization.Mutex on Linux waits on a
// futex from uninstrumented code) is announced by acquiring `address` after locking and
// releasing it before unlocking. Without Thread Sanitizer they do nothing.
void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));
static inline void ccurl_tsan_acquire(void *address) {
  if (__tsan_acquire) __tsan_acquire(address);
}
static inline void ccurl_tsan_release(void *address) {
  if (__tsan_release) __tsan_release(address);
}

#endif
