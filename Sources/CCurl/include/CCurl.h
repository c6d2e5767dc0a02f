// Hand-declared libcurl API, loaded at run time with dlopen/dlsym.
//
// No curl header is needed to build this target and nothing is linked against libcurl:
// ccurl_load() opens the shared library and resolves every function below. The constants are
// copies of libcurl's ABI values; scripts/check-curl-constants.sh compiles this header beside
// <curl/curl.h> and static_asserts that every one of them matches.
//
// The variadic functions (curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt) cannot be
// called from Swift, so each gets typed wrappers that pass the exact C type libcurl reads.
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>
#include <stdint.h>

#include "CCurlDecoder.h"
#include "CCurlPoller.h"

// Opaque handles: CURL, CURLM and struct curl_slist.
typedef struct ccurl_easy ccurl_easy;
typedef struct ccurl_multi ccurl_multi;
typedef struct ccurl_slist ccurl_slist;
// CURLSH: a share handle (the cookie store a client's handles share).
typedef struct ccurl_share ccurl_share;

// The oldest libcurl accepted: 7.68.0 (CURLINFO_*_TIME_T, curl_multi_wakeup, HTTP/0.9 refused
// by default).
#define CCURL_MINIMUM_VERSION 0x074400
#define CCURL_LIBRARY_NAME "libcurl.so.4"

// CURLoption
#define CCURLOPT_WRITEDATA 10001
#define CCURLOPT_URL 10002
#define CCURLOPT_PROXY 10004
#define CCURLOPT_READDATA 10009
#define CCURLOPT_ERRORBUFFER 10010
#define CCURLOPT_WRITEFUNCTION 20011
#define CCURLOPT_READFUNCTION 20012
#define CCURLOPT_HTTPHEADER 10023
#define CCURLOPT_HEADERDATA 10029
#define CCURLOPT_COOKIEFILE 10031
#define CCURLOPT_COOKIE 10022
#define CCURLOPT_SSLVERSION 32
#define CCURLOPT_CUSTOMREQUEST 10036
#define CCURLOPT_NOPROGRESS 43
#define CCURLOPT_NOBODY 44
#define CCURLOPT_POST 47
#define CCURLOPT_FOLLOWLOCATION 52
#define CCURLOPT_MAXREDIRS 68
#define CCURLOPT_FORBID_REUSE 75
#define CCURLOPT_XFERINFODATA 10057
#define CCURLOPT_SSL_VERIFYPEER 64
#define CCURLOPT_CAINFO 10065
#define CCURLOPT_HEADERFUNCTION 20079
#define CCURLOPT_VERBOSE 41
#define CCURLOPT_DEBUGFUNCTION 20094
#define CCURLOPT_DEBUGDATA 10095
#define CCURLOPT_HTTPGET 80
#define CCURLOPT_SSL_VERIFYHOST 81
#define CCURLOPT_HTTP_VERSION 84
#define CCURLOPT_BUFFERSIZE 98
#define CCURLOPT_NOSIGNAL 99
#define CCURLOPT_ACCEPT_ENCODING 10102
#define CCURLOPT_PRIVATE 10103
#define CCURLOPT_POSTFIELDSIZE_LARGE 30120
#define CCURLOPT_TCP_NODELAY 121
#define CCURLOPT_COOKIELIST 10135
#define CCURLOPT_SEEKFUNCTION 20167
#define CCURLOPT_SEEKDATA 10168
#define CCURLOPT_SOCKOPTFUNCTION 20148
#define CCURLOPT_SOCKOPTDATA 10149
#define CCURLOPT_NOPROXY 10177
#define CCURLOPT_PROTOCOLS 181
#define CCURLOPT_CLOSESOCKETFUNCTION 20208
#define CCURLOPT_CLOSESOCKETDATA 10209
#define CCURLOPT_XFERINFOFUNCTION 20219
#define CCURLOPT_PIPEWAIT 237
#define CCURLOPT_SUPPRESS_CONNECT_HEADERS 265
#define CCURLOPT_UPLOAD_BUFFERSIZE 280
#define CCURLOPT_SSLCERT 10025
#define CCURLOPT_KEYPASSWD 10026
#define CCURLOPT_SSLCERTTYPE 10086
#define CCURLOPT_SSLKEY 10087
#define CCURLOPT_SSLKEYTYPE 10088
#define CCURLOPT_CONNECTTIMEOUT_MS 156
#define CCURLOPT_PINNEDPUBLICKEY 10230
#define CCURLOPT_UNIX_SOCKET_PATH 10231
#define CCURLOPT_SHARE 10100
#define CCURLOPT_TRAILERFUNCTION 20283
#define CCURLOPT_TRAILERDATA 10284

// CURLINFO
#define CCURLINFO_PRIVATE 1048597
#define CCURLINFO_REDIRECT_URL 1048607
#define CCURLINFO_RESPONSE_CODE 2097154
#define CCURLINFO_NUM_CONNECTS 2097178
#define CCURLINFO_HTTP_VERSION 2097198
#define CCURLINFO_SIZE_UPLOAD_T 6291463
#define CCURLINFO_SIZE_DOWNLOAD_T 6291464
#define CCURLINFO_TOTAL_TIME_T 6291506
#define CCURLINFO_NAMELOOKUP_TIME_T 6291507
#define CCURLINFO_CONNECT_TIME_T 6291508
#define CCURLINFO_PRETRANSFER_TIME_T 6291509
#define CCURLINFO_STARTTRANSFER_TIME_T 6291510
#define CCURLINFO_APPCONNECT_TIME_T 6291512

// curl_infotype: what a debug callback is given (the raw bytes received after the head)
#define CCURLINFO_DATA_IN 3

// CURLMoption
#define CCURLMOPT_SOCKETFUNCTION 20001
#define CCURLMOPT_SOCKETDATA 10002
#define CCURLMOPT_PIPELINING 3
#define CCURLMOPT_TIMERFUNCTION 20004
#define CCURLMOPT_TIMERDATA 10005
#define CCURLMOPT_MAXCONNECTS 6
#define CCURLMOPT_MAX_HOST_CONNECTIONS 7

// CURLSHoption and what a share holds
#define CCURLSHOPT_SHARE 1
#define CCURL_LOCK_DATA_COOKIE 2

// Option values
#define CCURL_GLOBAL_DEFAULT 3
#define CCURLVERSION_NOW 10
#define CCURL_HTTP_VERSION_1_1 2
#define CCURL_HTTP_VERSION_2TLS 4
#define CCURL_SSLVERSION_TLSv1_2 6
#define CCURL_SSLVERSION_TLSv1_3 7
#define CCURLPROTO_HTTP 1
#define CCURLPROTO_HTTPS 2
#define CCURLPAUSE_RECV 1
#define CCURLPAUSE_CONT 0
#define CCURL_WRITEFUNC_PAUSE 0x10000001
#define CCURL_READFUNC_ABORT 0x10000000
#define CCURL_READFUNC_PAUSE 0x10000001
// curl_easy_header (libcurl 7.83 on, so optional): the origin of HTTP/2 and HTTP/3 pseudo-headers
// and the CURLHcode values read
#define CCURLH_PSEUDO (1 << 4)
#define CCURLHE_OK 0
#define CCURLHE_MISSING 2
#define CCURLHE_NOHEADERS 3
#define CCURL_SEEKFUNC_OK 0
#define CCURL_SEEKFUNC_FAIL 1
#define CCURL_SOCKOPT_OK 0
#define CCURL_TRAILERFUNC_OK 0
#define CCURL_TRAILERFUNC_ABORT 1
#define CCURL_POLL_IN 1
#define CCURL_POLL_OUT 2
#define CCURL_POLL_INOUT 3
#define CCURL_POLL_REMOVE 4
#define CCURL_SOCKET_TIMEOUT (-1)
#define CCURL_CSELECT_IN 1
#define CCURL_CSELECT_OUT 2
#define CCURL_CSELECT_ERR 4
#define CCURLMSG_DONE 1
#define CCURL_ERROR_SIZE 256

// CURLcode
#define CCURLE_OK 0
#define CCURLE_UNSUPPORTED_PROTOCOL 1
#define CCURLE_URL_MALFORMAT 3
#define CCURLE_COULDNT_RESOLVE_PROXY 5
#define CCURLE_COULDNT_RESOLVE_HOST 6
#define CCURLE_COULDNT_CONNECT 7
#define CCURLE_WEIRD_SERVER_REPLY 8
#define CCURLE_HTTP2 16
#define CCURLE_PARTIAL_FILE 18
#define CCURLE_WRITE_ERROR 23
#define CCURLE_READ_ERROR 26
#define CCURLE_OUT_OF_MEMORY 27
#define CCURLE_OPERATION_TIMEDOUT 28
#define CCURLE_SSL_CONNECT_ERROR 35
#define CCURLE_ABORTED_BY_CALLBACK 42
#define CCURLE_GOT_NOTHING 52
#define CCURLE_SSL_ENGINE_NOTFOUND 53
#define CCURLE_SEND_ERROR 55
#define CCURLE_RECV_ERROR 56
#define CCURLE_SSL_CERTPROBLEM 58
#define CCURLE_SSL_CIPHER 59
#define CCURLE_PEER_FAILED_VERIFICATION 60
#define CCURLE_BAD_CONTENT_ENCODING 61
#define CCURLE_SEND_FAIL_REWIND 65
#define CCURLE_TOO_MANY_REDIRECTS 47
#define CCURLE_SSL_CACERT_BADFILE 77
#define CCURLE_SSL_ISSUER_ERROR 83
#define CCURLE_HTTP2_STREAM 92
#define CCURLE_SSL_PINNEDPUBKEYNOTMATCH 90
#define CCURLE_PROXY 97

// CURLMcode
#define CCURLM_OK 0

// The leading fields of curl_version_info_data (the struct only grows at its end).
typedef struct ccurl_version_info {
  int age;
  const char *version;
  unsigned int version_num;
  const char *host;
  int features;
} ccurl_version_info;

// CURLMsg.
typedef struct ccurl_message {
  int msg;
  ccurl_easy *easy_handle;
  union {
    void *whatever;
    int result;
  } data;
} ccurl_message;

// Callback types, as libcurl calls them (curl_off_t is 64 bits on every supported platform).
typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*ccurl_seek_callback)(void *userdata, int64_t offset, int origin);
typedef int (*ccurl_xferinfo_callback)(void *userdata, int64_t download_total,
                                       int64_t download_now, int64_t upload_total,
                                       int64_t upload_now);
typedef int (*ccurl_socket_callback)(ccurl_easy *easy, int socket, int what, void *userdata,
                                     void *socket_data);
typedef int (*ccurl_timer_callback)(ccurl_multi *multi, long timeout_ms, void *userdata);
// curlsocktype is an enum, passed as an int.
typedef int (*ccurl_sockopt_callback)(void *userdata, int socket, int purpose);
typedef int (*ccurl_closesocket_callback)(void *userdata, int socket);
// Appends the request's trailer fields to `list` (libcurl frees it).
typedef int (*ccurl_trailer_callback)(ccurl_slist **list, void *userdata);
// curl_infotype is an enum, passed as an int.
typedef int (*ccurl_debug_callback)(ccurl_easy *easy, int type, char *data, size_t size,
                                    void *userdata);

// Loading. Opens `library_name`, resolves every function and checks the version against
// `minimum_version` (0xXXYYZZ). On failure returns a nonzero status and writes a sentence naming
// what was looked for into `error`. With `install` nonzero and success, the library becomes the
// one every wrapper below calls (only the first successful install counts); otherwise it is
// closed again, which lets a caller probe a library name.
int ccurl_load(const char *library_name, unsigned int minimum_version, int install, char *error,
               size_t error_size);
// The installed library's version text ("7.88.1") and number (0x075801).
const char *ccurl_version(void);
unsigned int ccurl_version_number(void);
// The installed library's feature bits (CURL_VERSION_BROTLI, ...), 0 before it is installed.
int ccurl_version_features(void);

int ccurl_global_init(long flags);

ccurl_easy *ccurl_easy_init(void);
void ccurl_easy_cleanup(ccurl_easy *easy);
void ccurl_easy_reset(ccurl_easy *easy);
int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value);
int ccurl_easy_setopt_off_t(ccurl_easy *easy, int option, int64_t value);
int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, void *value);
int ccurl_easy_setopt_string(ccurl_easy *easy, int option, const char *value);
int ccurl_easy_setopt_slist(ccurl_easy *easy, int option, ccurl_slist *value);
int ccurl_easy_setopt_data_callback(ccurl_easy *easy, int option, ccurl_data_callback value);
int ccurl_easy_setopt_seek_callback(ccurl_easy *easy, int option, ccurl_seek_callback value);
int ccurl_easy_setopt_xferinfo_callback(ccurl_easy *easy, int option,
                                        ccurl_xferinfo_callback value);
int ccurl_easy_setopt_sockopt_callback(ccurl_easy *easy, int option, ccurl_sockopt_callback value);
int ccurl_easy_setopt_closesocket_callback(ccurl_easy *easy, int option,
                                           ccurl_closesocket_callback value);
int ccurl_easy_setopt_trailer_callback(ccurl_easy *easy, int option, ccurl_trailer_callback value);
int ccurl_easy_setopt_debug_callback(ccurl_easy *easy, int option, ccurl_debug_callback value);
int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value);
int ccurl_easy_getinfo_double(ccurl_easy *easy, int info, double *value);
int ccurl_easy_getinfo_off_t(ccurl_easy *easy, int info, int64_t *value);
int ccurl_easy_getinfo_string(ccurl_easy *easy, int info, const char **value);
// Whether the peer closed its sending side of `socket` and every byte it sent before was read:
// a non-blocking peek that finds the end of the stream (1), data or nothing yet (0).
int ccurl_socket_at_end(int socket);
int ccurl_easy_pause(ccurl_easy *easy, int bitmask);
// Whether the head just received came with the `:status` pseudo-header, which libcurl records
// for an HTTP/2 or HTTP/3 response only (what CURLINFO_HTTP_VERSION reports follows the status
// line, which a server on HTTP/1.1 may write as `HTTP/2`): 1 yes, 0 no, -1 unknown
// (curl_easy_header missing, before libcurl 7.83, or refusing the pseudo-header origin, as
// 7.84 did).
int ccurl_easy_has_status_pseudo_header(ccurl_easy *easy);
const char *ccurl_easy_strerror(int code);

ccurl_slist *ccurl_slist_append(ccurl_slist *list, const char *text);
void ccurl_slist_free_all(ccurl_slist *list);
/// The layout of libcurl's struct curl_slist (checked by scripts/check-curl-constants.sh).
typedef struct ccurl_slist_node {
  char *data;
  struct ccurl_slist_node *next;
} ccurl_slist_node;
/// A header list in one allocation, for CURLOPT_HTTPHEADER: `count` NUL-terminated lines laid
/// end to end in `lines` (`length` bytes in all, the NULs included) are copied into one block
/// that holds the list's nodes and their text. NULL when `count` is 0 or memory ran out. Free it
/// with ccurl_slist_block_free, never ccurl_slist_free_all (nor hand it to libcurl to free).
ccurl_slist *ccurl_slist_block(const char *lines, size_t length, size_t count);
void ccurl_slist_block_free(ccurl_slist *list);

ccurl_multi *ccurl_multi_init(void);
int ccurl_multi_cleanup(ccurl_multi *multi);
int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy);
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy);
int ccurl_multi_setopt_long(ccurl_multi *multi, int option, long value);
int ccurl_multi_setopt_pointer(ccurl_multi *multi, int option, void *value);
int ccurl_multi_setopt_socket_callback(ccurl_multi *multi, int option,
                                       ccurl_socket_callback value);
int ccurl_multi_setopt_timer_callback(ccurl_multi *multi, int option, ccurl_timer_callback value);
int ccurl_multi_socket_action(ccurl_multi *multi, int socket, int events, int *running);
// The next finished transfer: returns 1 and fills `easy` and `result`, or 0 when none is left.
int ccurl_multi_next_done(ccurl_multi *multi, ccurl_easy **easy, int *result);
const char *ccurl_multi_strerror(int code);

// Share handles. Every handle of a client runs on its loop thread, so no lock callbacks.
ccurl_share *ccurl_share_init(void);
int ccurl_share_setopt_long(ccurl_share *share, int option, long value);
int ccurl_share_cleanup(ccurl_share *share);

#endif
