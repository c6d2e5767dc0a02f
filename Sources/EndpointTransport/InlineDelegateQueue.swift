#if canImport(FoundationNetworking)
  import Foundation

  /// The client's delegate queue on Linux: runs each delegate callback at once, on the thread
  /// that delivers it, instead of as an `Operation`.
  ///
  /// swift-corelibs-foundation hands every callback to the delegate queue with
  /// `addOperation(_:)` from the session's internal serial work queue. A real queue costs an
  /// `Operation`, a lock and a thread wake-up per callback, three per request; running the
  /// block in place keeps the order (the work queue is serial) and removes the hop.
  ///
  /// The price: callbacks then run on the session's work queue, and URLSession methods that
  /// wait on that queue (`cancel()`, `resume()`, `dataTask(with:)`, `uploadTask`, and the
  /// challenge completion handler, which cancels) deadlock when called from a callback. Every
  /// such call in the client is sent to another queue first (see ``Transfer`` and
  /// ``TaskRouter``).
  final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override init() {
      super.init()
      name = "Endpoint.URLSessionHTTPClient"
      maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
      block()
    }
  }
#endif
