import EndpointKernel
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionHTTPClient {
  /// How a ``URLSessionHTTPClient`` sends requests.
  ///
  /// Timeouts are measured by the SDK with its own timers, with sub-second precision, on every
  /// platform (URLSession on Linux rounds its timeouts down to whole seconds and ignores the
  /// resource timeout).
  ///
  /// ```swift
  /// var configuration = URLSessionHTTPClient.Configuration()
  /// configuration.idleTimeout = .milliseconds(500)
  /// configuration.deadline = .seconds(10)
  /// configuration.redirectPolicy = .follow(upTo: 5)
  /// configuration.maximumResponseSize = 10 * 1024 * 1024
  /// let client = URLSessionHTTPClient(configuration: configuration)
  /// ```
  public struct Configuration: Sendable {
    private var storedSessionConfiguration: URLSessionConfiguration

    /// The URLSession configuration the client's session is made from (a copy is kept).
    ///
    /// Defaults to `.ephemeral` with `urlCache` set to `nil`: a cache must be asked for, since
    /// cancelling a request while a cache is attached can crash URLSession on Linux. The client
    /// sets `httpMaximumConnectionsPerHost` from ``maximumConnectionsPerHost`` and widens
    /// URLSession's own timeouts so that the SDK's ``idleTimeout`` and ``deadline`` decide.
    public var sessionConfiguration: URLSessionConfiguration {
      get { Self.copy(storedSessionConfiguration) }
      set { storedSessionConfiguration = Self.copy(newValue) }
    }

    /// How long a transfer may go without sending or receiving a byte; `nil` for no limit.
    /// Defaults to 60 seconds.
    ///
    /// It covers the wait for the response too, so a server that never answers fails with a
    /// ``EndpointCore/TransportFailure`` of kind
    /// ``EndpointCore/TransportFailure/Kind/idleTimeout`` after this long.
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

    /// The most connections open to one host at a time. Defaults to 6.
    public var maximumConnectionsPerHost: Int

    /// The most bytes of a streamed response body held in memory, received but not yet read.
    /// Defaults to 64 MiB.
    ///
    /// URLSession on Linux cannot pause a transfer (suspending a task closes the connection and
    /// a resumed task delivers the data twice), so bytes keep arriving however slowly the body
    /// is read, and wait in memory until read. Past this bound the transfer is stopped with a
    /// ``EndpointCore/TransportFailure`` of kind
    /// ``EndpointCore/TransportFailure/Kind/bufferOverflow`` rather than letting memory grow
    /// without end: a body smaller than the bound never fails this way, a larger one only when
    /// its reader falls this far behind. Use
    /// ``EndpointCore/HTTPTransferClient/download(_:to:accepting:progress:)`` for large bodies;
    /// it writes them to disk as they arrive.
    public var bodyBufferLimit: Int

    /// Response bodies declared (by `Content-Length`) at most this many bytes are received
    /// whole before ``URLSessionHTTPClient/send(_:)`` returns, as an in-memory body. Defaults to
    /// 64 KiB; 0 turns it off.
    ///
    /// This saves a thread switch per small response, so a JSON call costs no more than a plain
    /// URLSession call. Larger or undeclared bodies (streams, server-sent events) are handed
    /// over as soon as the response head arrives.
    public var inlineBodyLimit: Int

    /// Called once per request, when its transfer ends, with its timings and byte counts.
    ///
    /// It runs on the thread that ended the transfer (usually the session's delegate queue, which
    /// on Linux is URLSession's own work queue, the timer's queue for a timeout, the cancelling
    /// thread for a cancellation): keep it short and hand heavy work elsewhere, since the
    /// client's other transfers wait meanwhile.
    public var metricsObserver: (@Sendable (TransferMetrics) -> Void)?

    /// How long a request may wait for its first sign of a connection; `nil` (the default)
    /// for no limit of its own. Best effort: URLSession tells nothing of the connection phase.
    ///
    /// The SDK's timer fails the request with a ``EndpointCore/TransportFailure`` of kind
    /// ``EndpointCore/TransportFailure/Kind/connectTimeout`` when, this long after it started,
    /// neither a byte of the request body was reported sent nor the response head arrived (nor
    /// a redirect). For a request without a body that is the time to the
    /// response head: a server slower than this to answer fails too, so choose a limit above
    /// the slowest expected answer, or use `CurlHTTPClient`, whose connect timeout covers the
    /// TCP connection and the TLS handshake only. ``idleTimeout`` and ``deadline`` still apply.
    public var connectTimeout: Duration?

    /// The public keys a server may present; empty (the default) for any key the system
    /// trusts.
    ///
    /// On Apple platforms the client checks the server's key against these pins after the
    /// system has evaluated its certificate chain, and cancels the connection before a request byte
    /// is sent when none matches. On Linux, Foundation gives no hook into server trust: a client
    /// with pins throws ``EndpointCore/InvalidRequest`` (`.unsupported`) for every request rather
    /// than send it unpinned; use `CurlHTTPClient` there.
    public var pinnedPublicKeys: [PublicKeyPin]

    /// Whether a request may go through the proxy the environment names. Defaults to `false`:
    /// no proxy unless one is asked for, as with `CurlHTTPClient`, whose `Proxy.environment`
    /// is the same choice.
    ///
    /// Foundation on Linux sends every request through the proxy that libcurl finds in the
    /// environment (`http_proxy` for `http` URLs, `https_proxy` or `HTTPS_PROXY` for `https`,
    /// else `all_proxy` or `ALL_PROXY`; not for a host `no_proxy` or `NO_PROXY` names), header
    /// fields and credentials included, and cannot be told not to. So with `false`, a request
    /// (or a redirect) that those variables would send through a proxy fails with
    /// ``EndpointCore/InvalidRequest`` (`.unsupported`) before a byte is sent; with `true`,
    /// Foundation sends it through that proxy. On Apple platforms Foundation reads no such
    /// variables and this changes nothing: the session configuration's
    /// `connectionProxyDictionary` (the system's settings by default) decides.
    public var allowsEnvironmentProxy: Bool

    /// Creates the default configuration.
    public init(
      sessionConfiguration: URLSessionConfiguration = Configuration.defaultSessionConfiguration(),
      idleTimeout: Duration? = .seconds(60),
      deadline: Duration? = nil,
      redirectPolicy: RedirectPolicy = .followDefault,
      maximumResponseSize: Int? = nil,
      maximumConnectionsPerHost: Int = 6,
      bodyBufferLimit: Int = 64 * 1024 * 1024,
      inlineBodyLimit: Int = 64 * 1024,
      metricsObserver: (@Sendable (TransferMetrics) -> Void)? = nil
    ) {
      self.storedSessionConfiguration = Self.copy(sessionConfiguration)
      self.idleTimeout = idleTimeout
      self.deadline = deadline
      self.redirectPolicy = redirectPolicy
      self.maximumResponseSize = maximumResponseSize
      self.maximumConnectionsPerHost = maximumConnectionsPerHost
      self.bodyBufferLimit = bodyBufferLimit
      self.inlineBodyLimit = inlineBodyLimit
      self.metricsObserver = metricsObserver
      self.connectTimeout = nil
      self.pinnedPublicKeys = []
      self.allowsEnvironmentProxy = false
    }

    /// `.ephemeral` without a URL cache: the starting point of ``sessionConfiguration``.
    public static func defaultSessionConfiguration() -> URLSessionConfiguration {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      return configuration
    }

    /// The session configuration the client really uses: limits and timeouts applied.
    func resolvedSessionConfiguration() -> URLSessionConfiguration {
      let configuration = sessionConfiguration
      configuration.httpMaximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
      // URLSession's own timers must never fire before the SDK's: they round down to whole
      // seconds on Linux and report a bare URLError.
      configuration.timeoutIntervalForRequest = Self.foundationTimeout(for: idleTimeout)
      configuration.timeoutIntervalForResource = 7 * 24 * 3600
      return configuration
    }

    static func foundationTimeout(for idle: Duration?) -> TimeInterval {
      guard let idle else { return 7 * 24 * 3600 }
      return (idle.seconds + 1).rounded(.up) + 1
    }

    private static func copy(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
      (configuration.copy() as? URLSessionConfiguration) ?? configuration
    }
  }
}
