import Synchronization

// Thread Sanitizer's own entry points, declared only in builds that link its runtime:
// scripts/sanitizers.sh passes -DENDPOINT_THREAD_SANITIZER with --sanitize=thread.
#if ENDPOINT_THREAD_SANITIZER
  @usableFromInline @_silgen_name("__tsan_acquire")
  func threadSanitizerAcquire(_ address: UnsafeMutableRawPointer)

  @usableFromInline @_silgen_name("__tsan_release")
  func threadSanitizerRelease(_ address: UnsafeMutableRawPointer)
#endif

extension Mutex where Value: ~Copyable {
  /// `withLock`, with the lock announced to Thread Sanitizer.
  ///
  /// On Linux a contended `Mutex` waits on a futex inside the standard library, which is not
  /// instrumented, so Thread Sanitizer sees no order between two holders and reports every access
  /// under the lock as a race. Built with `-DENDPOINT_THREAD_SANITIZER` (scripts/sanitizers.sh),
  /// this tells it that the lock was taken and given back, with the mutex's address as the lock's
  /// name; any other build compiles it to `withLock` itself, inlined as `withLock` is.
  @_transparent
  package borrowing func withVisibleLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    #if ENDPOINT_THREAD_SANITIZER
      // Named by the mutex's address, taken before locking: taking the value's address inside
      // would be an access that Thread Sanitizer checks before it learns of the lock.
      let name = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
      return try withLock { (value: inout sending Value) throws(E) -> sending Result in
        threadSanitizerAcquire(name)
        defer { threadSanitizerRelease(name) }
        return try body(&value)
      }
    #else
      try withLock(body)
    #endif
  }
}
