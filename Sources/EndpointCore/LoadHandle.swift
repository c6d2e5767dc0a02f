/// A request started with a completion handler; ``cancel()`` stops it.
///
/// ```swift
/// let handle = client.load(User.with(id: 42)) { result in … }
/// handle.cancel()   // the completion handler gets CancellationError
/// ```
public struct LoadHandle: Sendable {
  private let task: Task<Void, Never>

  init(task: Task<Void, Never>) {
    self.task = task
  }

  /// Stops the request; the completion handler is called with `CancellationError` unless it
  /// already ran.
  public func cancel() {
    task.cancel()
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { task.isCancelled }
}
