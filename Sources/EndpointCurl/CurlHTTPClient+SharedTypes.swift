// The transport vocabulary lives in EndpointCore, shared by every client; these names keep
// code written against the nested spellings compiling.
extension CurlHTTPClient {
  /// The package's one ``EndpointCore/IdleTimeout``, thrown by every transport.
  public typealias IdleTimeout = EndpointCore.IdleTimeout
  /// The package's one ``EndpointCore/DeadlineExceeded``, thrown by every transport.
  public typealias DeadlineExceeded = EndpointCore.DeadlineExceeded
  /// The package's one ``EndpointCore/TooManyRedirects``, thrown by every transport.
  public typealias TooManyRedirects = EndpointCore.TooManyRedirects
  /// The package's one ``EndpointCore/RedirectBodyNotReplayable``, thrown by every transport.
  public typealias RedirectBodyNotReplayable = EndpointCore.RedirectBodyNotReplayable
  /// The package's one ``EndpointCore/BodyLengthMismatch``, thrown by every transport.
  public typealias BodyLengthMismatch = EndpointCore.BodyLengthMismatch
  /// The package's one ``EndpointCore/DownloadFileError``, thrown by every transport.
  public typealias DownloadFileError = EndpointCore.DownloadFileError
  /// The package's one ``EndpointCore/TransferProgress``, reported by every transport.
  public typealias TransferProgress = EndpointCore.TransferProgress
  /// The package's one ``EndpointCore/TransferMetrics``, reported by every transport.
  public typealias TransferMetrics = EndpointCore.TransferMetrics
}
