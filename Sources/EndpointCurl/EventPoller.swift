internal import CCurl

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loop's wait: an epoll set holding libcurl's sockets and an eventfd that other threads
/// write to wake the loop (the system calls are in the C target, CCurlPoller.c).
///
/// Only Linux has epoll; elsewhere the client is never created (see
/// ``CurlLibrary/unavailable``), and this type only fails.
struct EventPoller {
  let pollDescriptor: Int32
  let wakeDescriptor: Int32

  init() throws(PollerFailure) {
    var wake: Int32 = -1
    pollDescriptor = ccurl_poller_create(&wake)
    guard pollDescriptor >= 0 else { throw PollerFailure(call: "epoll_create1", errno: errno) }
    wakeDescriptor = wake
  }

  /// Wakes the loop from any thread.
  func wake() {
    ccurl_poller_wake(wakeDescriptor)
  }

  /// Clears the wake-up counter after a wake-up was seen.
  func acknowledgeWake() {
    ccurl_poller_acknowledge(wakeDescriptor)
  }

  /// Watches `socket` for reading and/or writing, or stops watching it when both are false.
  func watch(_ socket: Int32, read: Bool, write: Bool) {
    _ = ccurl_poller_watch(pollDescriptor, socket, read ? 1 : 0, write ? 1 : 0)
  }

  /// Waits up to `timeout` milliseconds (-1 for no limit) and calls `handle` with each ready
  /// descriptor other than the wake-up one and its `CURL_CSELECT_*` bits; returns whether a
  /// wake-up was seen.
  func wait(timeout: Int32, _ handle: (Int32, Int32) -> Void) -> Bool {
    let capacity = 128
    return withUnsafeTemporaryAllocation(of: ccurl_poll_event.self, capacity: capacity) {
      events in
      let count = ccurl_poller_wait(pollDescriptor, events.baseAddress, Int32(capacity), timeout)
      guard count > 0 else { return false }
      var woken = false
      for index in 0..<Int(count) {
        let event = events[index]
        if event.fd == wakeDescriptor {
          woken = true
          continue
        }
        var mask: Int32 = 0
        if event.events & UInt32(CCURL_POLL_EVENT_READ) != 0 { mask |= CCURL_CSELECT_IN }
        if event.events & UInt32(CCURL_POLL_EVENT_WRITE) != 0 { mask |= CCURL_CSELECT_OUT }
        if event.events & UInt32(CCURL_POLL_EVENT_ERROR) != 0 { mask |= CCURL_CSELECT_ERR }
        handle(event.fd, mask)
      }
      return woken
    }
  }

  /// Closes both descriptors.
  func close() {
    _ = closeDescriptor(pollDescriptor)
    _ = closeDescriptor(wakeDescriptor)
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

@inline(__always)
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
