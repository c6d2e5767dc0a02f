#ifndef CCURL_INFLATE_H
#define CCURL_INFLATE_H

#include <stddef.h>

/// A streaming gzip/deflate decoder over the system's zlib, opened at run time like libcurl.
typedef struct ccurl_inflater ccurl_inflater;

/// Whether zlib (libz.so.1) could be loaded; loads it on the first call. Thread-safe.
int ccurl_inflate_available(void);

/// A decoder for `Content-Encoding: gzip` (`gzip` non-zero) or `deflate` (zlib-wrapped, or raw
/// deflate as some servers send it); NULL when zlib is unavailable or out of memory.
ccurl_inflater *ccurl_inflater_new(int gzip);

/// Decodes `input`, writing at most `capacity` bytes to `output`.
///
/// Returns 0 while the stream goes on, 1 once its end was decoded (the gzip trailer checked),
/// or a negative value for corrupt input. `consumed` and `produced` say how far it got: call
/// again with the rest of the input while `consumed < length` or the output was filled.
int ccurl_inflater_run(ccurl_inflater *inflater, const void *input, size_t length,
                       void *output, size_t capacity, size_t *consumed, size_t *produced);

/// Frees the decoder.
void ccurl_inflater_free(ccurl_inflater *inflater);

#endif
