/// The sizes of the buffers between libcurl and the client.
enum CurlBuffers {
  /// libcurl's receive buffer of a transfer (`CURLOPT_BUFFERSIZE`; libcurl's default is 16 KiB,
  /// the curl tool's 100 KiB), which libcurl allocates for each transfer: a large body arrives
  /// in a sixth of the socket reads and `poll` calls. It stays under the allocator's threshold
  /// for a mapping of its own (128 KiB), so a small request's buffer comes from the heap: larger
  /// ones cost the many small requests a page fault each when several are in flight.
  static let receive = 100 * 1024

  /// The receive buffer of a download to a file, which is sized for large bodies.
  static let downloadReceive = 512 * 1024

  /// libcurl's upload buffer (`CURLOPT_UPLOAD_BUFFERSIZE`; libcurl's default, and the curl
  /// tool's), which only a transfer that sends a body from a file or a stream allocates. Each
  /// piece is copied twice, from the file or stream into this buffer and from it into the
  /// socket: a buffer that stays in the CPU's cache keeps both copies fast. With 512 KiB, a
  /// 1 GiB upload from a file cost 0.34 s of CPU against the tool's 0.24 s; with 64 KiB it is
  /// within about 15% of the tool's (`scripts/bench-large.sh`).
  static let upload = 64 * 1024

  /// The largest chunk a streamed body's reader is handed: libcurl hands the body over in pieces
  /// of at most ``receive`` bytes, and the pieces that wait for the reader are joined up to this
  /// size, in buffers of this size that are reused once the reader drops its chunks (see
  /// `ChunkBufferPool`).
  static let coalescedChunk = 256 * 1024
}
