/// The sizes of the buffers between libcurl and the client.
enum CurlBuffers {
  /// libcurl's receive buffer of each easy handle (`CURLOPT_BUFFERSIZE`; libcurl's default is
  /// 16 KiB): a large body arrives in a few large socket reads instead of one read and one
  /// `poll` per 16 KiB. libcurl allocates it once per handle; a small response touches only the
  /// pages its bytes fill.
  static let receive = 512 * 1024

  /// libcurl's upload buffer of each easy handle (`CURLOPT_UPLOAD_BUFFERSIZE`; libcurl's default
  /// is 64 KiB), allocated only by handles that send a body from a file or a stream.
  static let upload = 512 * 1024

  /// The largest chunk a streamed body's reader is handed: libcurl hands the body over in pieces
  /// of at most 16 KiB, and the pieces that wait for the reader are joined up to this size.
  static let coalescedChunk = 256 * 1024
}
