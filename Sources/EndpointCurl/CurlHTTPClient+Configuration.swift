extension CurlHTTPClient {
  /// How a ``CurlHTTPClient`` sends requests.
  ///
  /// Timeouts are measured by the client's loop with its own clock, to the millisecond.
  ///
  /// ```swift
  /// var configuration = CurlHTTPClient.Configuration()
  /// configuration.idleTimeout = .milliseconds(500)
  /// configuration.deadline = .seconds(10)
  /// configuration.redirectPolicy = .follow(upTo: 5)
  /// configuration.maximumResponseSize = 10 * 1024 * 1024
  /// let client = try CurlHTTPClient(configuration: configuration)
  /// ```
  public struct Configuration: Sendable {
    /// How long a transfer may go without sending or receiving a byte; `nil` for no limit.
    /// Defaults to 60 seconds.
    ///
    /// It covers the connection and the wait for the response too, so a server that never
    /// answers fails with a ``EndpointCore/TransportFailure`` of kind
    /// ``EndpointCore/TransportFailure/Kind/idleTimeout`` after this long. Time spent waiting for
    /// the caller does not count: a slow reader of a streamed response, or a streamed request
    /// body whose stream is slow to give its next chunk.
    public var idleTimeout: Duration?

    /// How long a whole exchange (every redirect and the whole body) may take; `nil` for no
    /// limit, the default. ``EndpointCore/HTTPRequest/timeout`` replaces it for one request.
    /// Exceeding it fails with a ``EndpointCore/TransportFailure`` of kind
    /// ``EndpointCore/TransportFailure/Kind/deadlineExceeded``.
    public var deadline: Duration?

    /// Which redirects are followed. Defaults to ``EndpointCore/RedirectPolicy/followDefault`` (20).
    public var redirectPolicy: RedirectPolicy

    /// The largest response body accepted, in bytes; `nil` for no limit, the default.
    ///
    /// The declared `Content-Length` is checked first, then the bytes as they arrive; past the
    /// limit the transfer is stopped with a ``EndpointCore/TransportFailure`` of kind
    /// ``EndpointCore/TransportFailure/Kind/responseTooLarge``. A compressed body counts as
    /// decoded, piece by piece as it is decoded: a small body that decodes to gigabytes stops
    /// at the limit without being held whole.
    public var maximumResponseSize: Int?

    /// The most connections open to one host at a time; more requests wait for one to be
    /// free. Defaults to 8. (HTTP/2 requests to one host share a connection.)
    public var maximumConnectionsPerHost: Int

    /// The most idle connections kept open for reuse, over all hosts. Defaults to 128.
    ///
    /// Connections are kept alive between requests up to this many, so a dip in the number of
    /// requests in flight does not close them.
    public var maximumIdleConnections: Int

    /// The most bytes of a streamed body held in memory: of a response, received but not yet
    /// read; of a request, read from its stream but not yet sent. Defaults to 1 MiB.
    ///
    /// When the reader falls this far behind, the transfer pauses (the server's bytes wait in
    /// the network buffers) and resumes once the reader has caught up, so a slow reader never
    /// makes memory grow. A request body's stream is asked for its next chunk only while fewer
    /// bytes than this wait to be sent.
    ///
    /// A response's chunks are at most 256 KiB each, built in buffers of that size that are
    /// reused once the reader drops them, so a large body costs no new memory per chunk. A chunk
    /// that fills less than a quarter of its buffer is copied out, so a reader that keeps its
    /// chunks holds at most four times their bytes.
    public var streamBufferSize: Int

    /// Response bodies declared (by `Content-Length`) at most this many bytes are received
    /// whole before ``CurlHTTPClient/send(_:)`` returns, as an in-memory body. Defaults to
    /// 64 KiB; 0 turns it off.
    ///
    /// A JSON call then takes one step from the client's loop to the caller. Larger or
    /// undeclared bodies (streams, server-sent events) are handed over as soon as the response
    /// head arrives.
    public var inlineBodyLimit: Int

    /// Certificate verification settings for `https`; verification cannot be turned off.
    public var tls: TLS

    /// The proxy; defaults to ``Proxy/none``, which ignores proxy environment variables.
    public var proxy: Proxy

    /// Called once per request, when its transfer ends, with its timings and byte counts.
    ///
    /// It runs on the client's loop thread, which serves every request of the client: keep it
    /// short and hand heavy work elsewhere.
    public var metricsObserver: (@Sendable (TransferMetrics) -> Void)?

    /// How long making a connection may take (the TCP connection and the TLS handshake, for
    /// each address tried); `nil` (the default) for libcurl's own limit of 300 seconds.
    ///
    /// Apart from ``idleTimeout`` and ``deadline``, which still apply: a host that does not
    /// answer fails after this long with a ``EndpointCore/TransportFailure`` of kind
    /// ``EndpointCore/TransportFailure/Kind/connectTimeout``, and a server that accepts the
    /// connection but is slow to answer is governed by the idle timeout alone.
    public var connectTimeout: Duration?

    /// A Unix domain socket that every request of the client goes through instead of TCP
    /// (the Docker Engine API's `/var/run/docker.sock`, a local sidecar); `nil` (the default)
    /// for TCP.
    ///
    /// Request URLs keep their form (`http://localhost/v1.43/containers/json`): their host
    /// becomes the `Host` field and their path the request target; no name is resolved and no
    /// port is used. See ``unixSocket(path:)``.
    public var unixSocketPath: String?

    /// Whether the client keeps the cookies servers set and sends them with its later
    /// requests; `false` (the default): cookies are carried along one redirect chain only.
    ///
    /// The store is the client's own, in memory, shared by all its connections and forgotten
    /// with the client. libcurl applies the cookie rules (RFC 6265): domain and path matching,
    /// `Secure` cookies over https only, a cookie set again replaces the old one, and one
    /// expired by the server (`Max-Age=0` or an `Expires` in the past) is removed.
    public var storesCookies: Bool

    /// Creates the default configuration.
    public init(
      idleTimeout: Duration? = .seconds(60),
      deadline: Duration? = nil,
      redirectPolicy: RedirectPolicy = .followDefault,
      maximumResponseSize: Int? = nil,
      maximumConnectionsPerHost: Int = 8,
      maximumIdleConnections: Int = 128,
      streamBufferSize: Int = 1024 * 1024,
      inlineBodyLimit: Int = 64 * 1024,
      tls: TLS = TLS(),
      proxy: Proxy = .none,
      metricsObserver: (@Sendable (TransferMetrics) -> Void)? = nil
    ) {
      self.idleTimeout = idleTimeout
      self.deadline = deadline
      self.redirectPolicy = redirectPolicy
      self.maximumResponseSize = maximumResponseSize
      self.maximumConnectionsPerHost = maximumConnectionsPerHost
      self.maximumIdleConnections = maximumIdleConnections
      self.streamBufferSize = streamBufferSize
      self.inlineBodyLimit = inlineBodyLimit
      self.tls = tls
      self.proxy = proxy
      self.metricsObserver = metricsObserver
      self.connectTimeout = nil
      self.unixSocketPath = nil
      self.storesCookies = false
    }

    /// The default configuration with every request sent over the Unix domain socket at
    /// `path`.
    ///
    /// ```swift
    /// let docker = try CurlHTTPClient(
    ///   configuration: .unixSocket(path: "/var/run/docker.sock"))
    /// let url = URL(string: "http://localhost/v1.43/containers/json")!
    /// let request = HTTPRequest(method: .get, url: url)
    /// let (response, body) = try await docker.send(request)
    /// ```
    ///
    /// - Parameter path: the socket's path, at most 107 bytes.
    public static func unixSocket(path: String) -> Configuration {
      var configuration = Configuration()
      configuration.unixSocketPath = path
      return configuration
    }
  }
}
