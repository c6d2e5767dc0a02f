#include "ZlibReference.h"

#include <string.h>
#include <zlib.h>

size_t reference_compress(int gzip, int level, const void *input, size_t length, void *output,
                          size_t capacity) {
  z_stream stream;
  memset(&stream, 0, sizeof(stream));
  if (deflateInit2(&stream, level, Z_DEFLATED, gzip ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return 0;
  }
  stream.next_in = (Bytef *)input;
  stream.avail_in = (uInt)length;
  stream.next_out = output;
  stream.avail_out = (uInt)capacity;
  int result = deflate(&stream, Z_FINISH);
  size_t written = capacity - stream.avail_out;
  deflateEnd(&stream);
  return result == Z_STREAM_END ? written : 0;
}

long reference_decode(int gzip, int raw, const void *input, size_t length, void *output,
                      size_t capacity) {
  z_stream stream;
  memset(&stream, 0, sizeof(stream));
  if (inflateInit2(&stream, gzip ? 15 + 16 : (raw ? -15 : 15)) != Z_OK) return -1;
  stream.next_in = (Bytef *)input;
  stream.avail_in = (uInt)length;
  stream.next_out = output;
  stream.avail_out = (uInt)capacity;
  long outcome = -1;
  for (;;) {
    int result = inflate(&stream, Z_NO_FLUSH);
    if (result == Z_STREAM_END) {
      if (stream.avail_in == 0) {
        outcome = (long)(capacity - stream.avail_out);
        break;
      }
      // Only another gzip member may follow: its first two bytes are 1f 8b.
      if (!gzip || stream.next_in[0] != 0x1f || (stream.avail_in > 1 && stream.next_in[1] != 0x8b))
        break;
      if (inflateReset(&stream) != Z_OK) break;
      continue;
    }
    if (result == Z_OK) continue;
    if (result == Z_BUF_ERROR && stream.avail_out == 0) outcome = -2;
    // Z_BUF_ERROR with output room: the input ended inside a stream. Else corrupt.
    break;
  }
  inflateEnd(&stream);
  return outcome;
}
