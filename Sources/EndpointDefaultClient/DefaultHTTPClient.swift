import EndpointCurl
import EndpointTransport

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The right client for the platform the program runs on, made with one call.
///
/// On Apple platforms it sends through ``EndpointTransport/URLSessionHTTPClient``. On Linux it
/// sends through ``EndpointCurl/CurlHTTPClient`` when libcurl can be loaded, otherwise through
/// ``EndpointTransport/URLSessionHTTPClient``: Foundation's URLSession there crashes the process
/// on some server input (a chunked response with a trailer, a head cut off before its end) and
/// is several times slower; see <doc:ChoosingATransport>.
///
/// ```swift
/// let client = DefaultHTTPClient.make().with(RetryMiddleware())
/// let todo = try await client.call(Todo.with(id: 1))
/// ```
///
/// Create one client and keep it: each has its own connection pool and thread. When one
/// transport's own settings matter (TLS and proxy for curl, a `URLSessionConfiguration`), make
/// that client directly instead.
public struct DefaultHTTPClient: TransferPerforming, Sendable {
  /// A transport the package offers.
  public enum Transport: String, Sendable, Hashable, CustomStringConvertible {
    /// ``EndpointTransport/URLSessionHTTPClient``.
    case urlSession
    /// ``EndpointCurl/CurlHTTPClient``.
    case curl

    /// The transport's client type, as a name.
    public var description: String {
      switch self {
      case .urlSession: "URLSessionHTTPClient"
      case .curl: "CurlHTTPClient"
      }
    }
  }

  /// The transport this client sends through.
  public let transport: Transport
  /// The client requests go to: a ``EndpointCurl/CurlHTTPClient`` or a
  /// ``EndpointTransport/URLSessionHTTPClient``.
  public var base: any HTTPTransferClient { performer }
  /// ``base``, as the transfer operation every transport performs.
  private let performer: any TransferPerforming

  /// Makes the platform's client with the settings every transport shares.
  ///
  /// - Parameters:
  ///   - idleTimeout: the longest silence of a transfer before ``EndpointCore/IdleTimeout``;
  ///     `nil` for none.
  ///   - deadline: the longest a whole request may take before
  ///     ``EndpointCore/DeadlineExceeded``, unless the request sets its own; `nil` for none.
  ///   - redirectPolicy: which redirects are followed, and how many.
  ///   - maximumResponseSize: the largest response body accepted
  ///     (``EndpointCore/ResponseTooLarge``); `nil` for no limit.
  ///   - metricsObserver: called once per request with its ``EndpointCore/TransferMetrics``.
  /// - Returns: a client sending through ``EndpointCurl/CurlHTTPClient`` on Linux when libcurl
  ///   loads, otherwise through ``EndpointTransport/URLSessionHTTPClient``; ``transport`` says
  ///   which.
  public static func make(
    idleTimeout: Duration? = .seconds(60),
    deadline: Duration? = nil,
    redirectPolicy: RedirectPolicy = .followDefault,
    maximumResponseSize: Int? = nil,
    metricsObserver: (@Sendable (TransferMetrics) -> Void)? = nil
  ) -> DefaultHTTPClient {
    #if os(Linux)
      let curl = try? CurlHTTPClient(
        configuration: .init(
          idleTimeout: idleTimeout,
          deadline: deadline,
          redirectPolicy: redirectPolicy,
          maximumResponseSize: maximumResponseSize,
          metricsObserver: metricsObserver
        )
      )
      if let curl { return DefaultHTTPClient(transport: .curl, base: curl) }
    #endif
    let session = URLSessionHTTPClient(
      configuration: .init(
        idleTimeout: idleTimeout,
        deadline: deadline,
        redirectPolicy: redirectPolicy,
        maximumResponseSize: maximumResponseSize,
        metricsObserver: metricsObserver
      )
    )
    return DefaultHTTPClient(transport: .urlSession, base: session)
  }

  private init(transport: Transport, base: any TransferPerforming) {
    self.transport = transport
    self.performer = base
  }

  /// Sends a request through the chosen transport; see ``EndpointCore/HTTPClient/send(_:)``.
  public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    try await performer.send(request)
  }

  package func perform(
    _ request: HTTPRequest, mode: TransferMode, progress: TransferProgressHandlers
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await performer.perform(request, mode: mode, progress: progress)
  }
}
