#include "CCurl.h"

#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ccurl_api {
  int (*global_init)(long);
  ccurl_version_info *(*version_info)(int);
  ccurl_easy *(*easy_init)(void);
  void (*easy_cleanup)(ccurl_easy *);
  void (*easy_reset)(ccurl_easy *);
  int (*easy_setopt)(ccurl_easy *, int, ...);
  int (*easy_getinfo)(ccurl_easy *, int, ...);
  int (*easy_pause)(ccurl_easy *, int);
  const char *(*easy_strerror)(int);
  ccurl_slist *(*slist_append)(ccurl_slist *, const char *);
  void (*slist_free_all)(ccurl_slist *);
  ccurl_multi *(*multi_init)(void);
  int (*multi_cleanup)(ccurl_multi *);
  int (*multi_add_handle)(ccurl_multi *, ccurl_easy *);
  int (*multi_remove_handle)(ccurl_multi *, ccurl_easy *);
  int (*multi_setopt)(ccurl_multi *, int, ...);
  int (*multi_socket_action)(ccurl_multi *, int, int, int *);
  ccurl_message *(*multi_info_read)(ccurl_multi *, int *);
  const char *(*multi_strerror)(int);
  ccurl_share *(*share_init)(void);
  int (*share_setopt)(ccurl_share *, int, ...);
  int (*share_cleanup)(ccurl_share *);
  // Optional: NULL before libcurl 7.83.
  int (*easy_header)(ccurl_easy *, const char *, size_t, unsigned int, int, void **);
} ccurl_api;

// Written once, by the first successful install (the Swift side serialises loading), then only
// read.
static ccurl_api api;
static int installed = 0;
static ccurl_version_info *installed_version = NULL;

#define RESOLVE(field, symbol)                                                   \
  do {                                                                           \
    *(void **)(&candidate.field) = dlsym(handle, symbol);                        \
    if (candidate.field == NULL) {                                               \
      used += snprintf(missing + used, sizeof(missing) - used, " %s", symbol);   \
      if (used >= sizeof(missing)) used = sizeof(missing) - 1;                   \
    }                                                                            \
  } while (0)

int ccurl_load(const char *library_name, unsigned int minimum_version, int install, char *error,
               size_t error_size) {
  void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(error, error_size, "cannot load %s (%s)", library_name,
             reason ? reason : "not found");
    return 1;
  }
  // OpenSSL 3, where libcurl uses it, frees its global state in an exit handler: a process
  // that exits while the client's loop thread still reads a TLS connection (an HTTP/2
  // connection kept open receives frames) crashed in that freed state: 2 of 40 processes that
  // exited right after a 512 MiB HTTP/2 download, none of 40 with this call (measured with
  // scripts/bench-large.sh's child). The first initialisation of OpenSSL decides, and this one
  // asks it to leave its state to the end of the process. Found only when libcurl uses
  // OpenSSL (its dependencies are searched).
  int (*openssl_init_crypto)(uint64_t, const void *) = NULL;
  *(void **)(&openssl_init_crypto) = dlsym(handle, "OPENSSL_init_crypto");
  if (openssl_init_crypto != NULL) {
    openssl_init_crypto(0x00080000 /* OPENSSL_INIT_NO_ATEXIT */, NULL);
  }
  ccurl_api candidate;
  memset(&candidate, 0, sizeof(candidate));
  char missing[512] = "";
  size_t used = 0;
  RESOLVE(global_init, "curl_global_init");
  RESOLVE(version_info, "curl_version_info");
  RESOLVE(easy_init, "curl_easy_init");
  RESOLVE(easy_cleanup, "curl_easy_cleanup");
  RESOLVE(easy_reset, "curl_easy_reset");
  RESOLVE(easy_setopt, "curl_easy_setopt");
  RESOLVE(easy_getinfo, "curl_easy_getinfo");
  RESOLVE(easy_pause, "curl_easy_pause");
  RESOLVE(easy_strerror, "curl_easy_strerror");
  RESOLVE(slist_append, "curl_slist_append");
  RESOLVE(slist_free_all, "curl_slist_free_all");
  RESOLVE(multi_init, "curl_multi_init");
  RESOLVE(multi_cleanup, "curl_multi_cleanup");
  RESOLVE(multi_add_handle, "curl_multi_add_handle");
  RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
  RESOLVE(multi_setopt, "curl_multi_setopt");
  RESOLVE(multi_socket_action, "curl_multi_socket_action");
  RESOLVE(multi_info_read, "curl_multi_info_read");
  RESOLVE(share_init, "curl_share_init");
  RESOLVE(share_setopt, "curl_share_setopt");
  RESOLVE(share_cleanup, "curl_share_cleanup");
  RESOLVE(multi_strerror, "curl_multi_strerror");
  *(void **)(&candidate.easy_header) = dlsym(handle, "curl_easy_header");
  if (used > 0) {
    snprintf(error, error_size, "%s lacks the functions%s", library_name, missing);
    dlclose(handle);
    return 2;
  }
  ccurl_version_info *version = candidate.version_info(CCURLVERSION_NOW);
  if (version == NULL || version->version_num < minimum_version) {
    snprintf(error, error_size, "%s is libcurl %s; version %u.%u.%u or newer is required",
             library_name, version && version->version ? version->version : "(unknown)",
             (minimum_version >> 16) & 0xff, (minimum_version >> 8) & 0xff,
             minimum_version & 0xff);
    dlclose(handle);
    return 3;
  }
  if (!install || installed) {
    // A probe, or a second load: the library stays loaded in the process either way (dlopen
    // counts references), so closing this reference never unloads the installed one.
    dlclose(handle);
    return 0;
  }
  api = candidate;
  installed_version = version;
  installed = 1;
  return 0;
}

const char *ccurl_version(void) {
  return installed_version ? installed_version->version : "";
}

unsigned int ccurl_version_number(void) {
  return installed_version ? installed_version->version_num : 0;
}

int ccurl_version_features(void) { return installed_version ? installed_version->features : 0; }

int ccurl_global_init(long flags) { return api.global_init(flags); }

ccurl_easy *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(ccurl_easy *easy) { api.easy_cleanup(easy); }
void ccurl_easy_reset(ccurl_easy *easy) { api.easy_reset(easy); }

int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_off_t(ccurl_easy *easy, int option, int64_t value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, void *value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_string(ccurl_easy *easy, int option, const char *value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_slist(ccurl_easy *easy, int option, ccurl_slist *value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_data_callback(ccurl_easy *easy, int option, ccurl_data_callback value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_seek_callback(ccurl_easy *easy, int option, ccurl_seek_callback value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_xferinfo_callback(ccurl_easy *easy, int option,
                                        ccurl_xferinfo_callback value) {
  return api.easy_setopt(easy, option, value);
}

int ccurl_easy_setopt_sockopt_callback(ccurl_easy *easy, int option, ccurl_sockopt_callback value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_trailer_callback(ccurl_easy *easy, int option, ccurl_trailer_callback value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_debug_callback(ccurl_easy *easy, int option, ccurl_debug_callback value) {
  return api.easy_setopt(easy, option, value);
}
int ccurl_easy_setopt_closesocket_callback(ccurl_easy *easy, int option,
                                           ccurl_closesocket_callback value) {
  return api.easy_setopt(easy, option, value);
}

int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value) {
  return api.easy_getinfo(easy, info, value);
}
int ccurl_easy_getinfo_double(ccurl_easy *easy, int info, double *value) {
  return api.easy_getinfo(easy, info, value);
}
int ccurl_easy_getinfo_off_t(ccurl_easy *easy, int info, int64_t *value) {
  return api.easy_getinfo(easy, info, value);
}
int ccurl_easy_getinfo_string(ccurl_easy *easy, int info, const char **value) {
  return api.easy_getinfo(easy, info, value);
}
int ccurl_socket_at_end(int socket) {
  if (socket < 0) return 0;
  char byte;
  ssize_t count;
  do {
    count = recv(socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  } while (count < 0 && errno == EINTR);
  return count == 0;
}

int ccurl_easy_pause(ccurl_easy *easy, int bitmask) { return api.easy_pause(easy, bitmask); }
const char *ccurl_easy_strerror(int code) { return api.easy_strerror(code); }

int ccurl_easy_has_status_pseudo_header(ccurl_easy *easy) {
  if (api.easy_header == NULL) return -1;
  void *header = NULL;
  // Request -1: the last request of the transfer, whose head is being received.
  switch (api.easy_header(easy, ":status", 0, CCURLH_PSEUDO, -1, &header)) {
    case CCURLHE_OK: return 1;
    case CCURLHE_MISSING:
    case CCURLHE_NOHEADERS: return 0;
    default: return -1;
  }
}

ccurl_slist *ccurl_slist_append(ccurl_slist *list, const char *text) {
  return api.slist_append(list, text);
}
void ccurl_slist_free_all(ccurl_slist *list) { api.slist_free_all(list); }

ccurl_slist *ccurl_slist_block(const char *lines, size_t length, size_t count) {
  if (count == 0) return NULL;
  ccurl_slist_node *nodes = malloc(count * sizeof(ccurl_slist_node) + length);
  if (!nodes) return NULL;
  char *text = (char *)(nodes + count);
  memcpy(text, lines, length);
  for (size_t index = 0; index < count; index++) {
    nodes[index].data = text;
    nodes[index].next = index + 1 < count ? &nodes[index + 1] : NULL;
    text += strlen(text) + 1;
  }
  return (ccurl_slist *)nodes;
}

void ccurl_slist_block_free(ccurl_slist *list) { free(list); }

ccurl_multi *ccurl_multi_init(void) { return api.multi_init(); }
int ccurl_multi_cleanup(ccurl_multi *multi) { return api.multi_cleanup(multi); }
int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy) {
  return api.multi_add_handle(multi, easy);
}
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy) {
  return api.multi_remove_handle(multi, easy);
}
int ccurl_multi_setopt_long(ccurl_multi *multi, int option, long value) {
  return api.multi_setopt(multi, option, value);
}
int ccurl_multi_setopt_pointer(ccurl_multi *multi, int option, void *value) {
  return api.multi_setopt(multi, option, value);
}
int ccurl_multi_setopt_socket_callback(ccurl_multi *multi, int option,
                                       ccurl_socket_callback value) {
  return api.multi_setopt(multi, option, value);
}
int ccurl_multi_setopt_timer_callback(ccurl_multi *multi, int option, ccurl_timer_callback value) {
  return api.multi_setopt(multi, option, value);
}
int ccurl_multi_socket_action(ccurl_multi *multi, int socket, int events, int *running) {
  return api.multi_socket_action(multi, socket, events, running);
}

int ccurl_multi_next_done(ccurl_multi *multi, ccurl_easy **easy, int *result) {
  int queued = 0;
  ccurl_message *message;
  while ((message = api.multi_info_read(multi, &queued)) != NULL) {
    if (message->msg == CCURLMSG_DONE) {
      *easy = message->easy_handle;
      *result = message->data.result;
      return 1;
    }
  }
  return 0;
}

const char *ccurl_multi_strerror(int code) { return api.multi_strerror(code); }

ccurl_share *ccurl_share_init(void) { return api.share_init(); }
int ccurl_share_setopt_long(ccurl_share *share, int option, long value) {
  return api.share_setopt(share, option, value);
}
int ccurl_share_cleanup(ccurl_share *share) { return api.share_cleanup(share); }
