#ifndef ZLIB_REFERENCE_H
#define ZLIB_REFERENCE_H

#include <stddef.h>

// The content decoder fuzz target's reference: zlib's own compression and decoding, linked
// directly (never through the SDK's run-time loading), to check the decoder against.

/// Compresses `input` as one gzip member (`gzip` non-zero) or one zlib stream; returns the
/// length written to `output`, or 0 when it did not fit.
size_t reference_compress(int gzip, int level, const void *input, size_t length, void *output,
                          size_t capacity);

/// Decodes `input` as zlib does, with the rules of HTTP content codings: `gzip` is one or more
/// members, each checked, and nothing else may follow the last; `deflate` one zlib stream (or,
/// with `raw`, one raw deflate stream) with nothing after it. Returns the decoded length, -1
/// for input that is not a whole stream (corrupt, cut short or followed by other bytes), or -2
/// when the output does not fit in `capacity`.
long reference_decode(int gzip, int raw, const void *input, size_t length, void *output,
                      size_t capacity);

#endif
