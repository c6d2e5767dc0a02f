internal import CCurl

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loop's wait: an epoll set holding libcurl's sockets and an eventfd that other threads
/// write to wake the loop (the system calls and libcurl's socket callbacks are in the C target,
/// CCurlPoller.c).
///
/// Connection sockets stay in the set between transfers, and the set changes only when the
/// events libcurl asks for change: libcurl reports each socket it creates and closes through
/// callbacks set on every easy handle (``attach(_:)``).
///
/// Only Linux has epoll; elsewhere the client is never created (see
/// ``CurlLibrary/unavailable``), and this type only fails.
struct EventPoller {
  private let poller: OpaquePointer

  init() throws(PollerFailure) {
    guard let poller = ccurl_poller_create() else {
      throw PollerFailure(call: "epoll_create1", errno: errno)
    }
    self.poller = poller
  }

  /// Wakes the loop from any thread.
  func wake() {
    ccurl_poller_wake(poller)
  }

  /// Makes `multi` report the sockets it wants watched.
  func attach(multi: OpaquePointer) {
    _ = ccurl_poller_attach_multi(poller, multi)
  }

  /// The socket libcurl last asked to watch for `easy`'s connection, or -1. Loop thread.
  func socket(of easy: OpaquePointer) -> Int32 {
    ccurl_poller_socket_of(poller, easy)
  }

  /// Makes the connections `easy` opens report their sockets' creation and closing.
  func attach(_ easy: OpaquePointer) {
    _ = ccurl_poller_attach_easy(poller, easy)
  }

  /// Waits up to `timeout` milliseconds (-1 for no limit) for sockets or a wake-up; returns
  /// whether a wake-up was seen.
  @discardableResult
  func wait(timeout: Int32) -> Bool {
    var woken: Int32 = 0
    _ = ccurl_poller_wait(poller, timeout, &woken)
    return woken != 0
  }

  /// Hands every socket the last ``wait(timeout:)`` found ready to the multi handle.
  func dispatch() {
    ccurl_poller_dispatch(poller)
  }

  /// The `epoll_ctl` calls made so far.
  var controlCalls: Int { Int(ccurl_poller_control_calls(poller)) }

  /// The `epoll_wait` calls made so far.
  var waits: Int { Int(ccurl_poller_waits(poller)) }

  /// Closes both descriptors; only after the multi handle was cleaned up.
  func close() {
    ccurl_poller_destroy(poller)
  }
}

/// A system call the poller needs failed.
struct PollerFailure: Error, CustomStringConvertible {
  var call: String
  var errno: Int32

  var description: String {
    "\(call) failed: \(String(cString: strerror(errno)))"
  }
}
