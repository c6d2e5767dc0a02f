import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The least a delegate-based client can do: a session delegate on a serial `OperationQueue`
/// that appends the data and resumes a continuation when the task completes.
///
/// It separates what URLSession charges for delivering callbacks to a delegate (one operation on
/// the delegate queue per callback) from what the SDK adds on top.
final class DelegateBaseline: NSObject, URLSessionDataDelegate, Sendable {
  private struct Entry {
    var data = Data()
    var continuation: CheckedContinuation<(Data, URLResponse), any Error>
  }

  private let entries = Mutex<[Int: Entry]>([:])
  // OperationQueue keeps its underlying queue unowned.
  private let dispatchQueue = DispatchQueue(label: "DelegateBaseline")

  /// - Parameters:
  ///   - underlyingQueue: whether the delegate queue runs on a serial `DispatchQueue`.
  ///   - inline: whether callbacks run in place on URLSession's work queue (as the SDK's do on
  ///     Linux), instead of as operations.
  func makeSession(
    connections: Int,
    underlyingQueue: Bool = false,
    inline: Bool = false
  ) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpMaximumConnectionsPerHost = connections
    let queue = inline ? InPlaceQueue() : OperationQueue()
    queue.maxConcurrentOperationCount = 1
    if underlyingQueue {
      queue.underlyingQueue = dispatchQueue
    }
    return URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
  }

  func data(for request: URLRequest, session: URLSession) async throws -> (Data, URLResponse) {
    try await withCheckedThrowingContinuation { continuation in
      let task = session.dataTask(with: request)
      let identifier = task.taskIdentifier
      entries.withLock { $0[identifier] = Entry(continuation: continuation) }
      task.resume()
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let identifier = dataTask.taskIdentifier
    entries.withLock { $0[identifier]?.data.append(data) }
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didCompleteWithError error: (any Error)?
  ) {
    let identifier = task.taskIdentifier
    guard let entry = entries.withLock({ $0.removeValue(forKey: identifier) }) else { return }
    if let error {
      entry.continuation.resume(throwing: error)
    } else if let response = task.response {
      entry.continuation.resume(returning: (entry.data, response))
    } else {
      entry.continuation.resume(throwing: URLError(.badServerResponse))
    }
  }
}

/// A delegate queue that runs each callback where URLSession delivers it.
private final class InPlaceQueue: OperationQueue, @unchecked Sendable {
  override func addOperation(_ block: @escaping @Sendable () -> Void) {
    block()
  }
}

/// How a delegate-based baseline receives the response.
enum DelegateVariant {
  /// Response, data and completion callbacks on the delegate queue (what the SDK uses).
  case callbacks
  /// The same, the delegate queue running on a serial `DispatchQueue` (`underlyingQueue`).
  case underlyingQueue
  /// The callbacks run in place on URLSession's work queue, with no operation (as the SDK's).
  case inline
  /// A completion-handler task in the same delegate session: URLSession sends it no response or
  /// data callbacks, only the completion (one delegate-queue operation instead of three).
  case completionHandler
}

/// `DelegateBaseline` + a shared `JSONDecoder`: raw URLSession through a session delegate.
func delegateFetcher(connections: Int, url: URL, variant: DelegateVariant) -> Fetcher {
  let baseline = DelegateBaseline()
  let session = baseline.makeSession(
    connections: connections,
    underlyingQueue: variant == .underlyingQueue,
    inline: variant == .inline
  )
  let decoder = JSONDecoder()
  let name =
    switch variant {
    case .callbacks: "raw + delegate"
    case .underlyingQueue: "raw + delegate, underlyingQueue"
    case .inline: "raw + delegate, in place"
    case .completionHandler: "raw + delegate session, completion handler"
    }
  return Fetcher(name: name) {
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (data, response) =
      variant == .completionHandler
      ? try await completionData(for: request, session: session)
      : try await baseline.data(for: request, session: session)
    guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
      throw BenchmarkFailure(description: "unexpected response \(response)")
    }
    blackHole(try decoder.decode(Profile.self, from: data))
  }
}

/// `dataTask(with:completionHandler:)` wrapped in a continuation.
private func completionData(
  for request: URLRequest,
  session: URLSession
) async throws -> (Data, URLResponse) {
  try await withCheckedThrowingContinuation { continuation in
    let task = session.dataTask(with: request) { data, response, error in
      if let error {
        continuation.resume(throwing: error)
      } else if let response {
        continuation.resume(returning: (data ?? Data(), response))
      } else {
        continuation.resume(throwing: URLError(.badServerResponse))
      }
    }
    task.resume()
  }
}
