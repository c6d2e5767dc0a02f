#define _GNU_SOURCE
#include "CCurl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__
#include <pthread.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#define INITIAL_CAPACITY 64
#define MAXIMUM_EVENTS 128

struct ccurl_poller {
  int poll_fd;
  int wake_fd;
  struct ccurl_multi *multi;
  // One byte per descriptor number (STATE_* bits); grows with the highest descriptor seen.
  unsigned char *states;
  // The easy handle that last asked for each descriptor to be watched (NULL once closed).
  struct ccurl_easy **owners;
  size_t capacity;
  unsigned long control_calls;
  unsigned long waits;
  // What the last wait found, for ccurl_poller_dispatch.
  struct epoll_event ready[MAXIMUM_EVENTS];
  int ready_count;
};

enum {
  // The events the epoll set holds for the descriptor (CCURL_POLL_IN, CCURL_POLL_OUT).
  STATE_EVENTS = 0x03,
  // The descriptor is in the epoll set.
  STATE_REGISTERED = 0x04,
  // The events libcurl last asked for, shifted by STATE_WANTED_SHIFT; none after
  // CURL_POLL_REMOVE.
  STATE_WANTED = 0x18,
  STATE_WANTED_SHIFT = 3,
  // A connection socket: libcurl reports its closing through close_callback, so it may stay in
  // the epoll set while libcurl does not watch it.
  STATE_OWNED = 0x80,
};

static unsigned char *state_of(ccurl_poller *poller, int fd) {
  if (fd < 0) return NULL;
  size_t index = (size_t)fd;
  if (index >= poller->capacity) {
    size_t capacity = poller->capacity ? poller->capacity : INITIAL_CAPACITY;
    while (capacity <= index) capacity *= 2;
    unsigned char *grown = realloc(poller->states, capacity);
    if (grown == NULL) return NULL;
    memset(grown + poller->capacity, 0, capacity - poller->capacity);
    poller->states = grown;
    struct ccurl_easy **owners = realloc(poller->owners, capacity * sizeof(*owners));
    if (owners == NULL) return NULL;
    memset(owners + poller->capacity, 0, (capacity - poller->capacity) * sizeof(*owners));
    poller->owners = owners;
    poller->capacity = capacity;
  }
  return &poller->states[index];
}

static int control(ccurl_poller *poller, int operation, int fd, unsigned int events) {
  struct epoll_event event;
  memset(&event, 0, sizeof(event));
  event.events =
      ((events & CCURL_POLL_IN) ? EPOLLIN : 0) | ((events & CCURL_POLL_OUT) ? EPOLLOUT : 0);
  event.data.fd = fd;
  // Relaxed atomics: tests read the count from other threads.
  __atomic_fetch_add(&poller->control_calls, 1, __ATOMIC_RELAXED);
  return epoll_ctl(poller->poll_fd, operation, fd, &event);
}

// A descriptor whose closing libcurl may not report (the threaded resolver's socket pair): it
// leaves the set as soon as libcurl stops watching it, and its number may have been reused.
static void watch_unowned(ccurl_poller *poller, int fd, unsigned int want) {
  if (want == 0) {
    // The descriptor may already be closed, which removed it from the set: not an error.
    control(poller, EPOLL_CTL_DEL, fd, 0);
    return;
  }
  if (control(poller, EPOLL_CTL_MOD, fd, want) == 0) return;
  if (errno == ENOENT) control(poller, EPOLL_CTL_ADD, fd, want);
}

static void watch(ccurl_poller *poller, int fd, unsigned int want) {
  unsigned char *state = state_of(poller, fd);
  if (state == NULL || !(*state & STATE_OWNED)) {
    watch_unowned(poller, fd, want);
    return;
  }
  unsigned char next = (unsigned char)((*state & ~STATE_WANTED) | (want << STATE_WANTED_SHIFT));
  int registered = (next & STATE_REGISTERED) != 0;
  if (want == 0) {
    // An idle keep-alive connection stays in the set for the next transfer, which most often
    // watches it for reading again; an event that arrives meanwhile takes it out (dispatch).
    // A writable socket would report at once, so one watched for writing leaves now.
    if (registered && (next & CCURL_POLL_OUT)) {
      control(poller, EPOLL_CTL_DEL, fd, 0);
      next &= (unsigned char)~(STATE_EVENTS | STATE_REGISTERED);
    }
  } else if (!registered || (next & STATE_EVENTS) != want) {
    int operation = registered ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    int result = control(poller, operation, fd, want);
    if (result != 0 && errno == (registered ? ENOENT : EEXIST)) {
      // The set disagrees with the table (should not happen): do what the set needs.
      result = control(poller, registered ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, want);
    }
    next &= (unsigned char)~(STATE_EVENTS | STATE_REGISTERED);
    if (result == 0) next |= (unsigned char)(STATE_REGISTERED | want);
  }
  *state = next;
}

static int socket_callback(struct ccurl_easy *easy, int fd, int what, void *userdata,
                           void *socket_data) {
  (void)socket_data;
  unsigned int want = what == CCURL_POLL_REMOVE ? 0 : ((unsigned int)what & CCURL_POLL_INOUT);
  watch(userdata, fd, want);
  ccurl_poller *poller = userdata;
  if (want != 0 && state_of(poller, fd) != NULL && poller->owners[fd] != easy) {
    // A handle has one connection at a time (over HTTP/1.1): its older entry is stale.
    for (size_t other = 0; other < poller->capacity; other++) {
      if (poller->owners[other] == easy) poller->owners[other] = NULL;
    }
    poller->owners[fd] = easy;
  }
  return 0;
}

int ccurl_poller_socket_of(ccurl_poller *poller, struct ccurl_easy *easy) {
  for (size_t fd = 0; fd < poller->capacity; fd++) {
    if (poller->owners[fd] == easy) return (int)fd;
  }
  return -1;
}

static int sockopt_callback(void *userdata, int fd, int purpose) {
  (void)purpose;
  unsigned char *state = state_of(userdata, fd);
  // A new socket: libcurl reports its closing through close_callback (set on the same handle).
  if (state != NULL) *state = STATE_OWNED;
  return CCURL_SOCKOPT_OK;
}

static int close_callback(void *userdata, int fd) {
  ccurl_poller *poller = userdata;
  if (fd >= 0 && (size_t)fd < poller->capacity) {
    // Removed explicitly: a copy of the descriptor in a forked child would keep it in the set.
    if (poller->states[fd] & STATE_REGISTERED) control(poller, EPOLL_CTL_DEL, fd, 0);
    poller->states[fd] = 0;
    poller->owners[fd] = NULL;
  }
  return close(fd);
}

ccurl_poller *ccurl_poller_create(void) {
  ccurl_poller *poller = calloc(1, sizeof(ccurl_poller));
  if (poller == NULL) return NULL;
  poller->poll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (poller->poll_fd < 0) {
    free(poller);
    return NULL;
  }
  poller->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (poller->wake_fd < 0) {
    int saved = errno;
    close(poller->poll_fd);
    free(poller);
    errno = saved;
    return NULL;
  }
  // Edge-triggered: every write reports once, so the counter never needs reading.
  struct epoll_event event = {.events = EPOLLIN | EPOLLET, .data.fd = poller->wake_fd};
  if (epoll_ctl(poller->poll_fd, EPOLL_CTL_ADD, poller->wake_fd, &event) != 0) {
    int saved = errno;
    close(poller->poll_fd);
    close(poller->wake_fd);
    free(poller);
    errno = saved;
    return NULL;
  }
  return poller;
}

void ccurl_poller_destroy(ccurl_poller *poller) {
  if (poller == NULL) return;
  close(poller->poll_fd);
  close(poller->wake_fd);
  free(poller->states);
  free(poller->owners);
  free(poller);
}

void ccurl_poller_wake(ccurl_poller *poller) {
  uint64_t one = 1;
  ssize_t written = write(poller->wake_fd, &one, sizeof(one));
  (void)written;  // EAGAIN: the counter is full, and the loop wakes anyway.
}

int ccurl_poller_attach_multi(ccurl_poller *poller, struct ccurl_multi *multi) {
  poller->multi = multi;
  int code = ccurl_multi_setopt_socket_callback(multi, CCURLMOPT_SOCKETFUNCTION, socket_callback);
  if (code != CCURLM_OK) return code;
  return ccurl_multi_setopt_pointer(multi, CCURLMOPT_SOCKETDATA, poller);
}

int ccurl_poller_attach_easy(ccurl_poller *poller, struct ccurl_easy *easy) {
  int code = ccurl_easy_setopt_sockopt_callback(easy, CCURLOPT_SOCKOPTFUNCTION, sockopt_callback);
  if (code == CCURLE_OK) code = ccurl_easy_setopt_pointer(easy, CCURLOPT_SOCKOPTDATA, poller);
  if (code == CCURLE_OK) {
    code = ccurl_easy_setopt_closesocket_callback(easy, CCURLOPT_CLOSESOCKETFUNCTION,
                                                  close_callback);
  }
  if (code == CCURLE_OK) code = ccurl_easy_setopt_pointer(easy, CCURLOPT_CLOSESOCKETDATA, poller);
  return code;
}

int ccurl_poller_wait(ccurl_poller *poller, int timeout_ms, int *woken) {
  *woken = 0;
  poller->ready_count = 0;
  int count = epoll_wait(poller->poll_fd, poller->ready, MAXIMUM_EVENTS, timeout_ms);
  __atomic_fetch_add(&poller->waits, 1, __ATOMIC_RELAXED);
  if (count < 0) return -1;
  int kept = 0;
  for (int index = 0; index < count; index++) {
    if (poller->ready[index].data.fd == poller->wake_fd) {
      *woken = 1;
      continue;
    }
    poller->ready[kept++] = poller->ready[index];
  }
  poller->ready_count = kept;
  return kept;
}

void ccurl_poller_dispatch(ccurl_poller *poller) {
  int count = poller->ready_count;
  poller->ready_count = 0;
  for (int index = 0; index < count; index++) {
    int fd = poller->ready[index].data.fd;
    if (fd >= 0 && (size_t)fd < poller->capacity) {
      unsigned char state = poller->states[fd];
      if ((state & STATE_OWNED) && !(state & STATE_WANTED)) {
        // libcurl does not watch this socket (an idle connection, which libcurl checks before
        // reusing it, or an event from before the socket was closed): leave it alone.
        if (state & STATE_REGISTERED) {
          control(poller, EPOLL_CTL_DEL, fd, 0);
          poller->states[fd] = (unsigned char)(state & ~(STATE_EVENTS | STATE_REGISTERED));
        }
        continue;
      }
    }
    unsigned int flags = poller->ready[index].events;
    int mask = ((flags & (EPOLLIN | EPOLLHUP)) ? CCURL_CSELECT_IN : 0) |
               ((flags & EPOLLOUT) ? CCURL_CSELECT_OUT : 0) |
               ((flags & EPOLLERR) ? CCURL_CSELECT_ERR : 0);
    int running = 0;
    ccurl_multi_socket_action(poller->multi, fd, mask, &running);
  }
}

unsigned long ccurl_poller_control_calls(ccurl_poller *poller) {
  return __atomic_load_n(&poller->control_calls, __ATOMIC_RELAXED);
}

unsigned long ccurl_poller_waits(ccurl_poller *poller) {
  return __atomic_load_n(&poller->waits, __ATOMIC_RELAXED);
}

void ccurl_set_thread_name(const char *name) { pthread_setname_np(pthread_self(), name); }

#else

ccurl_poller *ccurl_poller_create(void) {
  errno = ENOSYS;
  return NULL;
}
void ccurl_poller_destroy(ccurl_poller *poller) { (void)poller; }
void ccurl_poller_wake(ccurl_poller *poller) { (void)poller; }
int ccurl_poller_attach_multi(ccurl_poller *poller, struct ccurl_multi *multi) {
  (void)poller, (void)multi;
  return -1;
}
int ccurl_poller_attach_easy(ccurl_poller *poller, struct ccurl_easy *easy) {
  (void)poller, (void)easy;
  return -1;
}
int ccurl_poller_wait(ccurl_poller *poller, int timeout_ms, int *woken) {
  (void)poller, (void)timeout_ms;
  *woken = 0;
  errno = ENOSYS;
  return -1;
}
void ccurl_poller_dispatch(ccurl_poller *poller) { (void)poller; }
int ccurl_poller_socket_of(ccurl_poller *poller, struct ccurl_easy *easy) {
  (void)poller, (void)easy;
  return -1;
}
unsigned long ccurl_poller_control_calls(ccurl_poller *poller) {
  (void)poller;
  return 0;
}
unsigned long ccurl_poller_waits(ccurl_poller *poller) {
  (void)poller;
  return 0;
}
void ccurl_set_thread_name(const char *name) { (void)name; }

#endif
