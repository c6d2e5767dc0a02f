import EndpointPrimitives
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The session delegate: routes every URLSession callback to the ``Transfer`` of its task.
///
/// One per session. The table is the only shared structure; each lookup holds its lock for a
/// dictionary access only.
final class TaskRouter: NSObject, URLSessionDataDelegate, Sendable {
  private let transfers = Mutex<[Int: Transfer]>([:])
  /// Tasks the client cancelled that have not completed yet.
  private let cancelling = Mutex<Set<Int>>([])
  private let worker: SessionWorker
  /// The public keys a server may present (checked on Apple platforms only).
  let pinnedPublicKeys: [PublicKeyPin]

  init(worker: SessionWorker, pinnedPublicKeys: [PublicKeyPin] = []) {
    self.worker = worker
    self.pinnedPublicKeys = pinnedPublicKeys
  }

  func register(_ task: URLSessionTask, for transfer: Transfer) {
    let identifier = task.taskIdentifier
    transfers.withVisibleLock { $0[identifier] = transfer }
  }

  func remove(_ task: URLSessionTask) {
    let identifier = task.taskIdentifier
    _ = transfers.withVisibleLock { $0.removeValue(forKey: identifier) }
  }

  /// A cancellation was sent to `task`: until it completes, it may still be receiving.
  func noteCancellation(of task: URLSessionTask) {
    let identifier = task.taskIdentifier
    _ = cancelling.withVisibleLock { $0.insert(identifier) }
  }

  /// Whether the session has no task in flight, cancelled ones included: its work queue is then
  /// idle, and a call that waits on it returns at once.
  var isIdle: Bool {
    transfers.withVisibleLock { $0.isEmpty } && cancelling.withVisibleLock { $0.isEmpty }
  }

  /// Fails every transfer in flight with the error `make` builds from its method and URL.
  func failAll(with make: (HTTPMethod, URL) -> any Error) {
    let all = transfers.withVisibleLock { Array($0.values) }
    for transfer in all { transfer.fail(with: make(transfer.method, transfer.url)) }
  }

  /// Forgets every task: the session is invalidated and its transfers have failed, and
  /// Foundation may not report the completion of every cancelled task after invalidation.
  func forgetAll() {
    transfers.withVisibleLock { $0.removeAll() }
    cancelling.withVisibleLock { $0.removeAll() }
  }

  /// How many transfers are in flight (for tests of clean-up).
  var count: Int { transfers.withVisibleLock { $0.count } }

  private func transfer(for task: URLSessionTask) -> Transfer? {
    let identifier = task.taskIdentifier
    return transfers.withVisibleLock { $0[identifier] }
  }

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    transfer(for: dataTask)?.didReceive(response, task: dataTask)
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    transfer(for: dataTask)?.didReceive(data, task: dataTask)
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    transfer(for: task)?.didSendBodyData(
      totalBytesSent: totalBytesSent,
      totalBytesExpected: totalBytesExpectedToSend,
      task: task
    )
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    // URLSession never follows a redirect itself: on Linux it drops the body of a 307/308 and
    // forwards credentials to any origin. The transfer applies the SDK's rules instead.
    // Answered here, at most once: the answer only queues work on the session's work queue, and
    // the transfer says whether a cancellation already sent to the task forbids it.
    let answer = transfer(for: task)?.willRedirect(response, to: request, task: task) ?? true
    if answer { completionHandler(nil) }
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    #if canImport(FoundationNetworking)
      // URLSession on Linux sends no server-trust challenges, only HTTP authentication ones.
      // Default handling waits forever for a credential on Linux before Swift 6.3.2, and a nil
      // credential crashes; "cancel" delivers the 401 and its body, then a cancellation that
      // the transfer treats as the normal end.
      transfer(for: task)?.noteChallengeCancelled(task: task)
      // "Cancel" calls `task.cancel()`, which waits on the session's work queue: the queue this
      // callback runs on (see InlineDelegateQueue). URLSession accepts the answer from any
      // thread, so the client's worker gives it; the handler is called exactly once.
      nonisolated(unsafe) let answer = completionHandler
      worker.submit { answer(.cancelAuthenticationChallenge, nil) }
    #else
      if !pinnedPublicKeys.isEmpty,
        challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
        let trust = challenge.protectionSpace.serverTrust
      {
        // The system evaluates the chain, then the server's key must match a pin.
        if ServerTrustPinning.evaluate(trust, pins: pinnedPublicKeys) {
          completionHandler(.useCredential, URLCredential(trust: trust))
        } else {
          completionHandler(.cancelAuthenticationChallenge, nil)
        }
        return
      }
      // Server trust is checked by the system; for HTTP authentication without a stored
      // credential, Apple's default handling returns the 401 as it is.
      completionHandler(.performDefaultHandling, nil)
    #endif
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didCompleteWithError error: (any Error)?
  ) {
    let identifier = task.taskIdentifier
    let transfer = transfers.withVisibleLock { $0.removeValue(forKey: identifier) }
    _ = cancelling.withVisibleLock { $0.remove(identifier) }
    transfer?.didComplete(task: task, error: error)
  }
}
