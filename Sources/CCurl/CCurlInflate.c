#include "CCurlInflate.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// zlib's z_stream, declared here so no zlib headers are needed to build (its layout is part of
// zlib's stable ABI).
typedef struct {
  const unsigned char *next_in;
  unsigned int avail_in;
  unsigned long total_in;
  unsigned char *next_out;
  unsigned int avail_out;
  unsigned long total_out;
  const char *msg;
  void *state;
  void *zalloc;
  void *zfree;
  void *opaque;
  int data_type;
  unsigned long adler;
  unsigned long reserved;
} ccurl_z_stream;

#define CCURL_Z_OK 0
#define CCURL_Z_STREAM_END 1
#define CCURL_Z_BUF_ERROR (-5)
#define CCURL_Z_NO_FLUSH 0

static int (*z_inflateInit2_)(ccurl_z_stream *, int, const char *, int);
static int (*z_inflate)(ccurl_z_stream *, int);
static int (*z_inflateEnd)(ccurl_z_stream *);
static const char *(*z_zlibVersion)(void);
static int loaded = 0;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_zlib(void) {
  void *handle = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) handle = dlopen("libz.dylib", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) return;
  *(void **)(&z_inflateInit2_) = dlsym(handle, "inflateInit2_");
  *(void **)(&z_inflate) = dlsym(handle, "inflate");
  *(void **)(&z_inflateEnd) = dlsym(handle, "inflateEnd");
  *(void **)(&z_zlibVersion) = dlsym(handle, "zlibVersion");
  loaded = z_inflateInit2_ != NULL && z_inflate != NULL && z_inflateEnd != NULL &&
           z_zlibVersion != NULL;
}

int ccurl_inflate_available(void) {
  pthread_once(&load_once, load_zlib);
  return loaded;
}

struct ccurl_inflater {
  ccurl_z_stream stream;
  int gzip;
  int started;    // some input was given to zlib
  int raw_retry;  // deflate: retried as raw deflate after a zlib header error
};

static int start(ccurl_inflater *inflater, int window_bits) {
  memset(&inflater->stream, 0, sizeof(inflater->stream));
  return z_inflateInit2_(&inflater->stream, window_bits, z_zlibVersion(),
                         (int)sizeof(ccurl_z_stream));
}

ccurl_inflater *ccurl_inflater_new(int gzip) {
  if (!ccurl_inflate_available()) return NULL;
  ccurl_inflater *inflater = calloc(1, sizeof(ccurl_inflater));
  if (inflater == NULL) return NULL;
  inflater->gzip = gzip;
  // 15 + 16: a gzip wrapper only; 15: a zlib wrapper.
  if (start(inflater, gzip ? 15 + 16 : 15) != CCURL_Z_OK) {
    free(inflater);
    return NULL;
  }
  return inflater;
}

int ccurl_inflater_run(ccurl_inflater *inflater, const void *input, size_t length,
                       void *output, size_t capacity, size_t *consumed, size_t *produced) {
  ccurl_z_stream *stream = &inflater->stream;
  unsigned int in = length > 0x40000000u ? 0x40000000u : (unsigned int)length;
  unsigned int out = capacity > 0x40000000u ? 0x40000000u : (unsigned int)capacity;
  stream->next_in = (const unsigned char *)input;
  stream->avail_in = in;
  stream->next_out = (unsigned char *)output;
  stream->avail_out = out;
  int result = z_inflate(stream, CCURL_Z_NO_FLUSH);
  if (result < 0 && result != CCURL_Z_BUF_ERROR && !inflater->gzip && !inflater->started &&
      !inflater->raw_retry) {
    // `deflate` without the zlib wrapper RFC 9110 asks for: some servers send raw deflate.
    z_inflateEnd(stream);
    inflater->raw_retry = 1;
    if (start(inflater, -15) != CCURL_Z_OK) return -2;
    stream->next_in = (const unsigned char *)input;
    stream->avail_in = in;
    stream->next_out = (unsigned char *)output;
    stream->avail_out = out;
    result = z_inflate(stream, CCURL_Z_NO_FLUSH);
  }
  inflater->started = 1;
  *consumed = in - stream->avail_in;
  *produced = out - stream->avail_out;
  if (result == CCURL_Z_STREAM_END) return 1;
  if (result == CCURL_Z_OK || result == CCURL_Z_BUF_ERROR) return 0;
  return result < 0 ? result : -1;
}

void ccurl_inflater_free(ccurl_inflater *inflater) {
  if (inflater == NULL) return;
  z_inflateEnd(&inflater->stream);
  free(inflater);
}
