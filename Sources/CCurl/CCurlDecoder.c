#include "CCurlDecoder.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The libraries' few types, declared here so no zlib, brotli or zstd headers are needed to
// build (their layouts are part of each library's stable ABI).

// zlib's z_stream.
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

// zstd's ZSTD_inBuffer and ZSTD_outBuffer.
typedef struct {
  const void *src;
  size_t size;
  size_t pos;
} ccurl_zstd_in;
typedef struct {
  void *dst;
  size_t size;
  size_t pos;
} ccurl_zstd_out;

#define CCURL_ZSTD_D_WINDOWLOGMAX 100
#define CCURL_ZSTD_PREFIX_UNKNOWN 10
// RFC 9659: a zstd content coding's window is at most 8 MiB, so a decoder never needs more.
#define CCURL_ZSTD_WINDOW_LOG 23

#define CCURL_BROTLI_ERROR 0
#define CCURL_BROTLI_SUCCESS 1

static struct {
  int (*inflateInit2_)(ccurl_z_stream *, int, const char *, int);
  int (*inflate)(ccurl_z_stream *, int);
  int (*inflateReset)(ccurl_z_stream *);
  int (*inflateEnd)(ccurl_z_stream *);
  const char *(*zlibVersion)(void);
  int loaded;
} zlib;

static struct {
  void *(*create)(void *, void *, void *);
  int (*decompress)(void *, size_t *, const uint8_t **, size_t *, uint8_t **, size_t *);
  int (*errorCode)(void *);
  const char *(*errorString)(int);
  void (*destroy)(void *);
  int loaded;
} brotli;

static struct {
  void *(*create)(void);
  size_t (*setParameter)(void *, int, int);
  size_t (*decompress)(void *, ccurl_zstd_out *, ccurl_zstd_in *);
  unsigned (*isError)(size_t);
  int (*errorCode)(size_t);
  const char *(*errorName)(size_t);
  size_t (*free)(void *);
  int loaded;
} zstd;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void *open_library(const char *name, const char *apple_name) {
  void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) handle = dlopen(apple_name, RTLD_NOW | RTLD_LOCAL);
  return handle;
}

#define LOAD(table, handle, field, symbol) *(void **)(&table.field) = dlsym(handle, symbol)

static void load_libraries(void) {
  void *z = open_library("libz.so.1", "libz.dylib");
  if (z != NULL) {
    LOAD(zlib, z, inflateInit2_, "inflateInit2_");
    LOAD(zlib, z, inflate, "inflate");
    LOAD(zlib, z, inflateReset, "inflateReset");
    LOAD(zlib, z, inflateEnd, "inflateEnd");
    LOAD(zlib, z, zlibVersion, "zlibVersion");
    zlib.loaded = zlib.inflateInit2_ && zlib.inflate && zlib.inflateReset && zlib.inflateEnd &&
                  zlib.zlibVersion;
  }
  void *b = open_library("libbrotlidec.so.1", "libbrotlidec.dylib");
  if (b != NULL) {
    LOAD(brotli, b, create, "BrotliDecoderCreateInstance");
    LOAD(brotli, b, decompress, "BrotliDecoderDecompressStream");
    LOAD(brotli, b, errorCode, "BrotliDecoderGetErrorCode");
    LOAD(brotli, b, errorString, "BrotliDecoderErrorString");
    LOAD(brotli, b, destroy, "BrotliDecoderDestroyInstance");
    brotli.loaded = brotli.create && brotli.decompress && brotli.errorCode &&
                    brotli.errorString && brotli.destroy;
  }
  void *s = open_library("libzstd.so.1", "libzstd.dylib");
  if (s != NULL) {
    LOAD(zstd, s, create, "ZSTD_createDCtx");
    LOAD(zstd, s, setParameter, "ZSTD_DCtx_setParameter");
    LOAD(zstd, s, decompress, "ZSTD_decompressStream");
    LOAD(zstd, s, isError, "ZSTD_isError");
    LOAD(zstd, s, errorCode, "ZSTD_getErrorCode");
    LOAD(zstd, s, errorName, "ZSTD_getErrorName");
    LOAD(zstd, s, free, "ZSTD_freeDCtx");
    zstd.loaded = zstd.create && zstd.setParameter && zstd.decompress && zstd.isError &&
                  zstd.errorCode && zstd.errorName && zstd.free;
  }
}

int ccurl_decoder_available(int coding) {
  pthread_once(&load_once, load_libraries);
  switch (coding) {
    case CCURL_CODING_GZIP:
    case CCURL_CODING_DEFLATE:
      return zlib.loaded;
    case CCURL_CODING_BR:
      return brotli.loaded;
    case CCURL_CODING_ZSTD:
      return zstd.loaded;
    default:
      return 0;
  }
}

struct ccurl_decoder {
  int coding;
  ccurl_z_stream stream;  // gzip, deflate
  void *state;            // br, zstd
  int started;            // some input was given to the library
  int raw_retry;          // deflate: retried as raw deflate after a zlib header error
  int ended;              // the stream ended (deflate, br), or the last member or frame did
  int magic_seen;         // gzip: bytes of the next member's magic number checked
  const char *message;
};

static int start_zlib(ccurl_decoder *decoder, int window_bits) {
  memset(&decoder->stream, 0, sizeof(decoder->stream));
  return zlib.inflateInit2_(&decoder->stream, window_bits, zlib.zlibVersion(),
                            (int)sizeof(ccurl_z_stream));
}

ccurl_decoder *ccurl_decoder_new(int coding) {
  if (!ccurl_decoder_available(coding)) return NULL;
  ccurl_decoder *decoder = calloc(1, sizeof(ccurl_decoder));
  if (decoder == NULL) return NULL;
  decoder->coding = coding;
  int ok = 0;
  switch (coding) {
    case CCURL_CODING_GZIP:  // 15 + 16: a gzip wrapper only
      ok = start_zlib(decoder, 15 + 16) == CCURL_Z_OK;
      break;
    case CCURL_CODING_DEFLATE:  // 15: a zlib wrapper
      ok = start_zlib(decoder, 15) == CCURL_Z_OK;
      break;
    case CCURL_CODING_BR:
      decoder->state = brotli.create(NULL, NULL, NULL);
      ok = decoder->state != NULL;
      break;
    case CCURL_CODING_ZSTD:
      decoder->state = zstd.create();
      ok = decoder->state != NULL &&
           !zstd.isError(zstd.setParameter(decoder->state, CCURL_ZSTD_D_WINDOWLOGMAX,
                                           CCURL_ZSTD_WINDOW_LOG));
      if (!ok && decoder->state != NULL) zstd.free(decoder->state);
      break;
  }
  if (!ok) {
    free(decoder);
    return NULL;
  }
  return decoder;
}

static int run_zlib(ccurl_decoder *decoder, const unsigned char *input, size_t length,
                    void *output, size_t capacity, size_t *consumed, size_t *produced) {
  ccurl_z_stream *stream = &decoder->stream;
  unsigned int in = length > 0x40000000u ? 0x40000000u : (unsigned int)length;
  unsigned int out = capacity > 0x40000000u ? 0x40000000u : (unsigned int)capacity;
  if (decoder->coding == CCURL_CODING_GZIP && decoder->ended && in > 0) {
    // After a member, the next bytes must start another one (RFC 1952, section 2.2).
    static const unsigned char magic[2] = {0x1f, 0x8b};
    for (size_t i = 0; decoder->magic_seen < 2 && i < in; i++) {
      if (input[i] != magic[decoder->magic_seen]) return CCURL_DECODE_TRAILING;
      decoder->magic_seen++;
    }
  }
  stream->next_in = input;
  stream->avail_in = in;
  stream->next_out = (unsigned char *)output;
  stream->avail_out = out;
  int result = zlib.inflate(stream, CCURL_Z_NO_FLUSH);
  if (result < 0 && result != CCURL_Z_BUF_ERROR && decoder->coding == CCURL_CODING_DEFLATE &&
      !decoder->started && !decoder->raw_retry) {
    // `deflate` without the zlib wrapper RFC 9110 asks for: some servers send raw deflate.
    zlib.inflateEnd(stream);
    decoder->raw_retry = 1;
    if (start_zlib(decoder, -15) != CCURL_Z_OK) return -2;
    stream->next_in = input;
    stream->avail_in = in;
    stream->next_out = (unsigned char *)output;
    stream->avail_out = out;
    result = zlib.inflate(stream, CCURL_Z_NO_FLUSH);
  }
  decoder->started = 1;
  *consumed = in - stream->avail_in;
  *produced = out - stream->avail_out;
  if (*consumed > 0) decoder->ended = 0;
  if (result == CCURL_Z_STREAM_END) {
    decoder->ended = 1;
    if (decoder->coding == CCURL_CODING_GZIP) {
      // Ready for another member, should one follow.
      decoder->magic_seen = 0;
      if (zlib.inflateReset(stream) != CCURL_Z_OK) return -2;
    }
    return CCURL_DECODE_END;
  }
  if (result == CCURL_Z_OK || result == CCURL_Z_BUF_ERROR) return CCURL_DECODE_MORE;
  decoder->message = stream->msg;
  return result < 0 ? result : -1;
}

static int run_brotli(ccurl_decoder *decoder, const unsigned char *input, size_t length,
                      void *output, size_t capacity, size_t *consumed, size_t *produced) {
  size_t available_in = length;
  const uint8_t *next_in = input;
  size_t available_out = capacity;
  uint8_t *next_out = output;
  int result =
      brotli.decompress(decoder->state, &available_in, &next_in, &available_out, &next_out, NULL);
  *consumed = length - available_in;
  *produced = capacity - available_out;
  if (result == CCURL_BROTLI_ERROR) {
    decoder->message = brotli.errorString(brotli.errorCode(decoder->state));
    return -2;
  }
  if (result == CCURL_BROTLI_SUCCESS) {
    decoder->ended = 1;
    return CCURL_DECODE_END;
  }
  return CCURL_DECODE_MORE;
}

static int run_zstd(ccurl_decoder *decoder, const unsigned char *input, size_t length,
                    void *output, size_t capacity, size_t *consumed, size_t *produced) {
  ccurl_zstd_in in = {input, length, 0};
  ccurl_zstd_out out = {output, capacity, 0};
  int at_frame_start = decoder->ended || !decoder->started;
  size_t result = zstd.decompress(decoder->state, &out, &in);
  decoder->started = 1;
  *consumed = in.pos;
  *produced = out.pos;
  if (zstd.isError(result)) {
    if (decoder->ended && at_frame_start &&
        zstd.errorCode(result) == CCURL_ZSTD_PREFIX_UNKNOWN) {
      return CCURL_DECODE_TRAILING;
    }
    decoder->message = zstd.errorName(result);
    return -2;
  }
  if (in.pos > 0) decoder->ended = 0;
  // 0: a frame was decoded and flushed whole; another may follow (RFC 8878, section 3.1).
  if (result == 0) {
    decoder->ended = 1;
    return CCURL_DECODE_END;
  }
  return CCURL_DECODE_MORE;
}

int ccurl_decoder_run(ccurl_decoder *decoder, const void *input, size_t length, void *output,
                      size_t capacity, size_t *consumed, size_t *produced) {
  *consumed = 0;
  *produced = 0;
  decoder->message = NULL;
  switch (decoder->coding) {
    case CCURL_CODING_GZIP:
      return run_zlib(decoder, input, length, output, capacity, consumed, produced);
    case CCURL_CODING_DEFLATE:
    case CCURL_CODING_BR:
      // One stream only: nothing may follow its end.
      if (decoder->ended && length > 0) return CCURL_DECODE_TRAILING;
      if (decoder->coding == CCURL_CODING_DEFLATE) {
        return run_zlib(decoder, input, length, output, capacity, consumed, produced);
      }
      return run_brotli(decoder, input, length, output, capacity, consumed, produced);
    case CCURL_CODING_ZSTD:
      return run_zstd(decoder, input, length, output, capacity, consumed, produced);
    default:
      return -1;
  }
}

const char *ccurl_decoder_message(ccurl_decoder *decoder) { return decoder->message; }

void ccurl_decoder_free(ccurl_decoder *decoder) {
  if (decoder == NULL) return;
  switch (decoder->coding) {
    case CCURL_CODING_GZIP:
    case CCURL_CODING_DEFLATE:
      zlib.inflateEnd(&decoder->stream);
      break;
    case CCURL_CODING_BR:
      brotli.destroy(decoder->state);
      break;
    case CCURL_CODING_ZSTD:
      zstd.free(decoder->state);
      break;
  }
  free(decoder);
}
