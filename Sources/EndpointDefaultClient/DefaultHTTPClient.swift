import EndpointCurl
import EndpointKernel
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
///
/// On Linux, when libcurl cannot be loaded the client falls back to URLSession and says so:
/// ``fallbackReason`` holds why, and ``base`` is a ``EndpointTransport/URLSessionHTTPClient``.
///
/// ```swift
/// let client = DefaultHTTPClient.make()
/// if let reason = client.fallbackReason {
///   logger.warning("sending through URLSession: \(reason)")
/// }
/// defer { Task { await client.shutdown() } }
/// ```
public struct DefaultHTTPClient: TransferPerforming, Sendable {
  /// Why the client sends through URLSession on Linux: libcurl could not be loaded (a
  /// ``EndpointCore/TransportFailure`` of kind ``EndpointCore/TransportFailure/Kind/libraryUnavailable``).
  /// `nil` when the client sends through the platform's preferred transport.
  public let fallbackReason: TransportFailure?
  /// The client requests go to: a ``EndpointCurl/CurlHTTPClient`` or a
  /// ``EndpointTransport/URLSessionHTTPClient``.
  ///
  /// ```swift
  /// let usesCurl = client.base is CurlHTTPClient
  /// print(type(of: client.base))  // CurlHTTPClient on Linux when libcurl loads
  /// ```
  public var base: any HTTPTransferClient { performer }
  /// ``base``, as the transfer operation every transport performs.
  private let performer: any TransferPerforming

  /// Makes the platform's client with the settings every transport shares.
  ///
  /// - Parameters:
  ///   - idleTimeout: the longest silence of a transfer before a
  ///     ``EndpointCore/TransportFailure/Kind/idleTimeout``; `nil` for none.
  ///   - deadline: the longest a whole request may take before a
  ///     ``EndpointCore/TransportFailure/Kind/deadlineExceeded``, unless the request sets its own;
  ///     `nil` for none.
  ///   - redirectPolicy: which redirects are followed, and how many.
  ///   - maximumResponseSize: the largest response body accepted (past it, a
  ///     ``EndpointCore/TransportFailure/Kind/responseTooLarge``); `nil` for no limit.
  ///   - metricsObserver: called once per request with its ``EndpointCore/TransferMetrics``.
  /// - Returns: a client sending through ``EndpointCurl/CurlHTTPClient`` on Linux when libcurl
  ///   loads, otherwise through ``EndpointTransport/URLSessionHTTPClient``; ``base`` says
  ///   which, and ``fallbackReason`` why curl was not used.
  public static func make(
    idleTimeout: Duration? = .seconds(60),
    deadline: Duration? = nil,
    redirectPolicy: RedirectPolicy = .followDefault,
    maximumResponseSize: Int? = nil,
    metricsObserver: (@Sendable (TransferMetrics) -> Void)? = nil
  ) -> DefaultHTTPClient {
    let session = {
      URLSessionHTTPClient(
        configuration: .init(
          idleTimeout: idleTimeout,
          deadline: deadline,
          redirectPolicy: redirectPolicy,
          maximumResponseSize: maximumResponseSize,
          metricsObserver: metricsObserver
        )
      )
    }
    #if os(Linux)
      let curl = Result { () throws(TransportFailure) -> CurlHTTPClient in
        do {
          return try CurlHTTPClient(
            configuration: .init(
              idleTimeout: idleTimeout,
              deadline: deadline,
              redirectPolicy: redirectPolicy,
              maximumResponseSize: maximumResponseSize,
              metricsObserver: metricsObserver
            )
          )
        } catch let failure as TransportFailure {
          throw failure
        } catch {
          throw TransportFailure(
            .libraryUnavailable, message: "the curl client could not be made: \(error)",
            isTransient: false, underlyingError: error)
        }
      }
      return choosing(curl: curl, session: session)
    #else
      return choosing(curl: nil, session: session)
    #endif
  }

  /// The client for `curl`'s outcome: curl when it was made, otherwise the client `session`
  /// makes, with the reason curl was not used.
  package static func choosing(
    curl: Result<CurlHTTPClient, TransportFailure>?, session: () -> URLSessionHTTPClient
  ) -> DefaultHTTPClient {
    switch curl {
    case .success(let client):
      DefaultHTTPClient(base: client, fallbackReason: nil)
    case .failure(let failure):
      DefaultHTTPClient(base: session(), fallbackReason: failure)
    case nil:
      DefaultHTTPClient(base: session(), fallbackReason: nil)
    }
  }

  private init(base: any TransferPerforming, fallbackReason: TransportFailure?) {
    self.performer = base
    self.fallbackReason = fallbackReason
  }

  /// Stops the client it wraps: requests in flight fail with a
  /// ``EndpointCore/TransportFailure`` of kind ``EndpointCore/TransportFailure/Kind/shutDown``,
  /// and so do requests sent later. Returns once the transport's threads have ended; calling it
  /// again returns at once.
  public func shutdown() async {
    switch performer {
    case let curl as CurlHTTPClient: await curl.shutdown()
    case let session as URLSessionHTTPClient: await session.shutdown()
    default: break
    }
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
