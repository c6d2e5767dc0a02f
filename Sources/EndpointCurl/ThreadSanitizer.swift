internal import CCurl
import Synchronization

extension Mutex where Value: Copyable {
  /// `withLock`, announced to Thread Sanitizer with `object` as the lock's name.
  ///
  /// Thread Sanitizer cannot see `Mutex` on Linux (it waits on a futex from code that is not
  /// instrumented), so without this it reports every access under the lock as a race. Outside
  /// Thread Sanitizer builds the announcements do nothing.
  func withVisibleLock<Result>(
    for object: AnyObject,
    _ body: (inout sending Value) throws -> sending Result
  ) rethrows -> sending Result {
    try withLock { value in
      let key = Unmanaged.passUnretained(object).toOpaque()
      ccurl_tsan_acquire(key)
      defer { ccurl_tsan_release(key) }
      return try body(&value)
    }
  }
}
