// epoll and eventfd for the client's loop, which Swift's Glibc module does not export, and the
// libcurl callbacks that keep the epoll set in step with libcurl's sockets.
// On platforms without epoll creation fails with ENOSYS.
#ifndef CCURL_POLLER_H
#define CCURL_POLLER_H

struct ccurl_easy;
struct ccurl_multi;

// An epoll set, an eventfd that wakes it, and what the set holds for each descriptor.
typedef struct ccurl_poller ccurl_poller;

// Creates a poller whose epoll set holds a new non-blocking eventfd. Returns NULL with errno set.
ccurl_poller *ccurl_poller_create(void);
// Closes the descriptors and frees the poller. Call after curl_multi_cleanup of the attached
// multi handle: closing its connections calls back into the poller.
void ccurl_poller_destroy(ccurl_poller *poller);
// Wakes a waiting ccurl_poller_dispatch (any thread).
void ccurl_poller_wake(ccurl_poller *poller);
// Makes `multi` report the sockets it wants watched to the poller (CURLMOPT_SOCKETFUNCTION).
// Returns 0, or libcurl's error code.
int ccurl_poller_attach_multi(ccurl_poller *poller, struct ccurl_multi *multi);
// Makes the connections `easy` opens tell the poller when libcurl creates and closes their
// sockets (CURLOPT_SOCKOPTFUNCTION, CURLOPT_CLOSESOCKETFUNCTION), so those stay in the epoll
// set between transfers. Returns 0, or libcurl's error code.
int ccurl_poller_attach_easy(ccurl_poller *poller, struct ccurl_easy *easy);
// Waits up to `timeout_ms` (-1: no limit) for sockets or a wake-up (then sets `*woken`). Returns
// the number of ready sockets, or -1 with errno set.
int ccurl_poller_wait(ccurl_poller *poller, int timeout_ms, int *woken);
// Hands each socket the last wait found ready to the attached multi handle
// (curl_multi_socket_action).
void ccurl_poller_dispatch(ccurl_poller *poller);
// The socket libcurl last asked to watch for `easy`'s connection, or -1 (loop thread).
int ccurl_poller_socket_of(ccurl_poller *poller, struct ccurl_easy *easy);
// The number of epoll_ctl calls made so far (for tests).
unsigned long ccurl_poller_control_calls(ccurl_poller *poller);
// The number of epoll_wait calls made so far (for tests).
unsigned long ccurl_poller_waits(ccurl_poller *poller);
// Names the calling thread (for debuggers and `top -H`).
void ccurl_set_thread_name(const char *name);

#endif
