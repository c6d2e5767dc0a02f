internal import CCurl

/// The cookie store of one client: a libcurl share handle holding cookies, attached to every
/// easy handle of the client's loop, so each of its connections sends and keeps the same
/// cookies. Used on the loop thread only (no lock callbacks are needed).
final class CurlCookieStore: @unchecked Sendable {
  private var share: OpaquePointer?

  init?() {
    guard let share = ccurl_share_init() else { return nil }
    guard ccurl_share_setopt_long(share, CCURLSHOPT_SHARE, CLong(CCURL_LOCK_DATA_COOKIE)) == 0
    else {
      _ = ccurl_share_cleanup(share)
      return nil
    }
    self.share = share
  }

  /// Turns `handle`'s cookie engine on, reading and writing this store.
  func attach(_ handle: EasyHandle) {
    guard let share else { return }
    _ = ccurl_easy_setopt_pointer(handle.pointer, CCURLOPT_SHARE, UnsafeMutableRawPointer(share))
    if !handle.cookieEngine {
      _ = ccurl_easy_setopt_string(handle.pointer, CCURLOPT_COOKIEFILE, "")
      handle.cookieEngine = true
    }
  }

  /// Frees the store, once no easy handle uses it any more.
  func close() {
    guard let share else { return }
    _ = ccurl_share_cleanup(share)
    self.share = nil
  }
}
