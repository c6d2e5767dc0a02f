/// The sizes of the buffers between libcurl and the client.
enum CurlBuffers {
  /// libcurl's receive buffer of a transfer (`CURLOPT_BUFFERSIZE`; libcurl's default is 16 KiB),
  /// which libcurl allocates for each transfer: a large body arrives in a quarter of the socket
  /// reads and `poll` calls. Larger buffers cost the many small requests a page fault each when
  /// several are in flight (the allocator returns the memory between requests).
  static let receive = 64 * 1024

  /// The receive buffer of a download to a file, which is sized for large bodies.
  static let downloadReceive = 512 * 1024

  /// libcurl's upload buffer (`CURLOPT_UPLOAD_BUFFERSIZE`; libcurl's default is 64 KiB), which
  /// only a transfer that sends a body from a file or a stream allocates.
  static let upload = 512 * 1024

  /// The largest chunk a streamed body's reader is handed: libcurl hands the body over in pieces
  /// of at most 16 KiB, and the pieces that wait for the reader are joined up to this size.
  static let coalescedChunk = 256 * 1024
}
