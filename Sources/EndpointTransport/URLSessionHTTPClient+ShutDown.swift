import EndpointKernel
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionHTTPClient {
  /// Stops the client: fails every request in flight (bodies being read included) with
  /// a ``EndpointCore/TransportFailure`` of kind ``EndpointCore/TransportFailure/Kind/shutDown``, invalidates its session, and refuses later requests with the same error.
  ///
  /// Returns once the session is invalidated and the client's threads have ended. Calling it
  /// again returns at once. Releasing the client without shutting it down lets requests in
  /// flight finish instead.
  public func shutdown() async {
    guard lifecycle.close() else { return }
    router.failAll(with: Self.shutDownFailure)
    let session = session
    let router = router
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // Runs after every launch already asked of the worker: a launch that saw the client open
      // has registered its task by then, and a later one sees it closed.
      worker.stop(then: {
        router.failAll(with: Self.shutDownFailure)
        session.invalidateAndCancel()
        router.forgetAll()
        continuation.resume()
      })
    }
    canceller.stop()
  }

  @Sendable package static func shutDownFailure(method: HTTPMethod, url: URL) -> any Error {
    TransportFailure.shutDown(method: method, url: url, client: "URLSessionHTTPClient")
  }
}

/// Whether a client is still open; shared by the client and its transfers.
final class ClientLifecycle: Sendable {
  private let closed = Atomic<Bool>(false)

  /// Whether ``close()`` was called.
  var isClosed: Bool { closed.load(ordering: .acquiring) }

  /// Closes the client; `false` when it was closed already.
  func close() -> Bool {
    !closed.exchange(true, ordering: .acquiringAndReleasing)
  }
}
