#ifndef CCURL_DECODER_H
#define CCURL_DECODER_H

#include <stddef.h>

/// A streaming decoder for one HTTP content coding, over the libraries libcurl itself links
/// (zlib, libbrotlidec, libzstd), opened at run time like libcurl.
typedef struct ccurl_decoder ccurl_decoder;

/// The codings: `gzip` (one or more members), `deflate` (zlib-wrapped, or raw deflate as some
/// servers send it), `br` and `zstd` (one or more frames).
#define CCURL_CODING_GZIP 1
#define CCURL_CODING_DEFLATE 2
#define CCURL_CODING_BR 3
#define CCURL_CODING_ZSTD 4

/// `ccurl_decoder_run`'s results besides the library's own negative errors.
#define CCURL_DECODE_MORE 0
#define CCURL_DECODE_END 1
#define CCURL_DECODE_TRAILING (-1000)

/// Whether the library for `coding` could be loaded; loads it on the first call. Thread-safe.
int ccurl_decoder_available(int coding);

/// A decoder for `coding`; NULL when its library is unavailable or out of memory.
ccurl_decoder *ccurl_decoder_new(int coding);

/// Decodes `input`, writing at most `capacity` bytes to `output`.
///
/// Returns `CCURL_DECODE_MORE` while the stream goes on, `CCURL_DECODE_END` when a gzip member,
/// a zstd frame or the whole deflate or br stream ended with this call (its checksum checked),
/// `CCURL_DECODE_TRAILING` for bytes after the end that do not start another gzip member or
/// zstd frame, or another negative value for corrupt input (`ccurl_decoder_message` says why).
/// `consumed` and `produced` say how far it got: call again with the rest of the input while
/// `consumed < length` or the output was filled.
int ccurl_decoder_run(ccurl_decoder *decoder, const void *input, size_t length, void *output,
                      size_t capacity, size_t *consumed, size_t *produced);

/// The library's words for the last error, or NULL.
const char *ccurl_decoder_message(ccurl_decoder *decoder);

/// Frees the decoder.
void ccurl_decoder_free(ccurl_decoder *decoder);

#endif
