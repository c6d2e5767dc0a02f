#define _GNU_SOURCE
#include "CCurlPoller.h"

#include <errno.h>
#include <unistd.h>

#ifdef __linux__
#include <pthread.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

int ccurl_poller_create(int *wake_fd) {
  int poll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (poll_fd < 0) return -1;
  int wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake < 0) {
    int saved = errno;
    close(poll_fd);
    errno = saved;
    return -1;
  }
  struct epoll_event event = {.events = EPOLLIN, .data.fd = wake};
  if (epoll_ctl(poll_fd, EPOLL_CTL_ADD, wake, &event) != 0) {
    int saved = errno;
    close(poll_fd);
    close(wake);
    errno = saved;
    return -1;
  }
  *wake_fd = wake;
  return poll_fd;
}

int ccurl_poller_watch(int poll_fd, int fd, int read, int write) {
  struct epoll_event event = {0};
  if (!read && !write) {
    // The socket may already be closed, which removed it from the set: not an error.
    return epoll_ctl(poll_fd, EPOLL_CTL_DEL, fd, &event);
  }
  event.events = (read ? EPOLLIN : 0) | (write ? EPOLLOUT : 0);
  event.data.fd = fd;
  if (epoll_ctl(poll_fd, EPOLL_CTL_MOD, fd, &event) == 0) return 0;
  if (errno != ENOENT) return -1;
  return epoll_ctl(poll_fd, EPOLL_CTL_ADD, fd, &event);
}

int ccurl_poller_wait(int poll_fd, ccurl_poll_event *events, int capacity, int timeout_ms) {
  struct epoll_event ready[128];
  if (capacity > 128) capacity = 128;
  int count = epoll_wait(poll_fd, ready, capacity, timeout_ms);
  for (int index = 0; index < count; index++) {
    unsigned int flags = ready[index].events;
    events[index].fd = ready[index].data.fd;
    events[index].events = ((flags & (EPOLLIN | EPOLLHUP)) ? CCURL_POLL_EVENT_READ : 0) |
                           ((flags & EPOLLOUT) ? CCURL_POLL_EVENT_WRITE : 0) |
                           ((flags & EPOLLERR) ? CCURL_POLL_EVENT_ERROR : 0);
  }
  return count;
}

void ccurl_poller_wake(int wake_fd) {
  uint64_t one = 1;
  ssize_t written = write(wake_fd, &one, sizeof(one));
  (void)written;  // EAGAIN: the counter is already non-zero, the loop wakes anyway.
}

void ccurl_poller_acknowledge(int wake_fd) {
  uint64_t value;
  ssize_t got = read(wake_fd, &value, sizeof(value));
  (void)got;
}

void ccurl_set_thread_name(const char *name) { pthread_setname_np(pthread_self(), name); }

#else

int ccurl_poller_create(int *wake_fd) {
  (void)wake_fd;
  errno = ENOSYS;
  return -1;
}
int ccurl_poller_watch(int poll_fd, int fd, int read, int write) {
  (void)poll_fd, (void)fd, (void)read, (void)write;
  errno = ENOSYS;
  return -1;
}
int ccurl_poller_wait(int poll_fd, ccurl_poll_event *events, int capacity, int timeout_ms) {
  (void)poll_fd, (void)events, (void)capacity, (void)timeout_ms;
  errno = ENOSYS;
  return -1;
}
void ccurl_poller_wake(int wake_fd) { (void)wake_fd; }
void ccurl_poller_acknowledge(int wake_fd) { (void)wake_fd; }
void ccurl_set_thread_name(const char *name) { (void)name; }

#endif
