/// What kind of call the middleware chain is running, for middleware that must treat a
/// download differently: its body goes to a file, so the chain sees an empty one.
enum TransferContext {
  /// Whether the current task runs the chain of ``MiddlewareClient``'s `download`.
  @TaskLocal static var isDownload = false
}
