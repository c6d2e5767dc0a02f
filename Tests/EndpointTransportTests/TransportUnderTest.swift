import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// The clients the shared transport suite runs against: every behaviour test takes one as its
/// argument, so both prove the same behaviour against the same servers.
enum TransportUnderTest: String, CaseIterable, CustomStringConvertible, Sendable {
  case urlSession
  case curl

  var description: String { rawValue }

  /// A client of this transport with the settings both share (the defaults are both clients'
  /// defaults).
  func makeClient(
    idleTimeout: Duration? = .seconds(60),
    deadline: Duration? = nil,
    redirects: RedirectPolicy = .followDefault,
    maximumResponseSize: Int? = nil,
    maximumConnectionsPerHost: Int = 8,
    inlineBodyLimit: Int = 64 * 1024,
    metricsObserver: (@Sendable (TransferMetrics) -> Void)? = nil
  ) throws -> any HTTPTransferClient {
    switch self {
    case .urlSession:
      URLSessionHTTPClient(
        configuration: .init(
          idleTimeout: idleTimeout,
          deadline: deadline,
          redirectPolicy: redirects,
          maximumResponseSize: maximumResponseSize,
          maximumConnectionsPerHost: maximumConnectionsPerHost,
          inlineBodyLimit: inlineBodyLimit,
          metricsObserver: metricsObserver
        )
      )
    case .curl:
      try CurlHTTPClient(
        configuration: .init(
          idleTimeout: idleTimeout,
          deadline: deadline,
          redirectPolicy: redirects,
          maximumResponseSize: maximumResponseSize,
          maximumConnectionsPerHost: maximumConnectionsPerHost,
          inlineBodyLimit: inlineBodyLimit,
          metricsObserver: metricsObserver
        )
      )
    }
  }

  /// Waits (up to `limit`) until `client` runs no transfer any more: nothing was left behind by
  /// a dropped body or a cancellation. For curl, every easy handle is back in the pool.
  func waitUntilIdle(_ client: any HTTPClient, within limit: Duration = .seconds(3)) async throws
    -> Bool
  {
    let start = ContinuousClock.now
    while !isIdle(client) {
      if ContinuousClock.now - start > limit { return false }
      try await Task.sleep(for: .milliseconds(10))
    }
    return true
  }

  private func isIdle(_ client: any HTTPClient) -> Bool {
    switch client {
    case let client as URLSessionHTTPClient: client.transfersInFlight == 0
    case let client as CurlHTTPClient: client.liveEasyHandles == client.pooledEasyHandles
    default: false
    }
  }

  /// Checks `error` is a connection failure for `url`, the same type on every transport, and
  /// that it says a retry may succeed when `transient` (a refused or reset connection).
  func expectConnectionFailure(
    _ error: any Error,
    url: URL,
    transient: Bool? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let failure = error as? TransportFailure
    #expect(failure != nil, "\(self): \(error)", sourceLocation: sourceLocation)
    #expect(failure?.url == url, "\(error)", sourceLocation: sourceLocation)
    if let transient {
      #expect(failure?.isTransient == transient, sourceLocation: sourceLocation)
    }
  }
}

/// Any client as a concrete `HTTPClient`, so generic API such as `with(_:)` applies to the
/// client under test.
struct AnyClient: HTTPClient {
  let base: any HTTPClient

  init(_ base: any HTTPClient) {
    self.base = base
  }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    try await base.send(request)
  }
}

extension HTTPTransferClient {
  /// `download(_:to:accepting:progress:)` with its defaults, on any transport.
  @discardableResult
  func download(
    _ request: HTTPRequest,
    to destination: URL,
    progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async throws -> HTTPResponse {
    try await download(request, to: destination, accepting: .success, progress: progress)
  }
}

/// Runs `operation` and returns its error (or fails the test when it succeeded).
func failure<T>(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ operation: () async throws -> T
) async -> (any Error)? {
  do {
    _ = try await operation()
    Issue.record("expected an error", sourceLocation: sourceLocation)
    return nil
  } catch {
    return error
  }
}
