import EndpointCore

/// The limits and callbacks of one transfer, the same on both transports: the request's own
/// options resolved against its client's.
///
/// Each transport reads these as the transfer goes; what only one transport needs (the URLSession
/// client's Foundation timeout, cookie jar and connect timeout) it keeps beside them.
package struct TransferOptions: Sendable {
  package var idleTimeout: Duration?
  package var deadline: Duration?
  package var redirectLimit: Int?
  /// Fields dropped across origins beside the SDK's credential fields.
  package var credentialFieldNames: Set<String>
  package var maximumResponseSize: Int?
  /// The most unread bytes of a streamed response body held for its reader: the curl client
  /// pauses receiving there, the URLSession client fails with `.bufferOverflow` past it.
  package var bodyBufferLimit: Int
  /// Bodies declared at most this long are handed over whole with the head.
  package var inlineBodyLimit: Int
  package var metricsObserver: (@Sendable (TransferMetrics) -> Void)?
  package var uploadProgress: (@Sendable (TransferProgress) -> Void)?
  package var downloadProgress: (@Sendable (TransferProgress) -> Void)?

  package init(
    idleTimeout: Duration? = nil,
    deadline: Duration? = nil,
    redirectLimit: Int? = nil,
    credentialFieldNames: Set<String> = [],
    maximumResponseSize: Int? = nil,
    bodyBufferLimit: Int,
    inlineBodyLimit: Int,
    metricsObserver: (@Sendable (TransferMetrics) -> Void)? = nil,
    uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
    downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil
  ) {
    self.idleTimeout = idleTimeout
    self.deadline = deadline
    self.redirectLimit = redirectLimit
    self.credentialFieldNames = credentialFieldNames
    self.maximumResponseSize = maximumResponseSize
    self.bodyBufferLimit = bodyBufferLimit
    self.inlineBodyLimit = inlineBodyLimit
    self.metricsObserver = metricsObserver
    self.uploadProgress = uploadProgress
    self.downloadProgress = downloadProgress
  }

  /// The options of `request` over a client with the given settings: the request's own idle
  /// timeout, deadline, redirect policy and size limit where it sets them, else the client's.
  package init(
    for request: HTTPRequest,
    clientIdleTimeout: Duration?,
    clientDeadline: Duration?,
    clientRedirectPolicy: RedirectPolicy,
    clientMaximumResponseSize: Int?,
    bodyBufferLimit: Int,
    inlineBodyLimit: Int,
    metricsObserver: (@Sendable (TransferMetrics) -> Void)?,
    uploadProgress: (@Sendable (TransferProgress) -> Void)?,
    downloadProgress: (@Sendable (TransferProgress) -> Void)?
  ) {
    let redirectPolicy = request.options.redirectPolicy(client: clientRedirectPolicy)
    self.init(
      idleTimeout: request.options.idleTimeout(client: clientIdleTimeout),
      deadline: deadlineWithinScope(request.timeout ?? clientDeadline),
      redirectLimit: redirectPolicy.limit,
      credentialFieldNames: redirectPolicy.credentialFieldNames,
      maximumResponseSize: request.options.maximumResponseSize(client: clientMaximumResponseSize),
      bodyBufferLimit: bodyBufferLimit,
      inlineBodyLimit: inlineBodyLimit,
      metricsObserver: metricsObserver,
      uploadProgress: uploadProgress,
      downloadProgress: downloadProgress
    )
  }
}
