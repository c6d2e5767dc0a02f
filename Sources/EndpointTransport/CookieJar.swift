import EndpointKernel
import EndpointPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Stores the cookies of responses in the session's cookie storage, in URLSession's place.
///
/// URLSession on Linux looks for cookies in every response header line as it arrives, on the
/// session's serial work queue: a string, a split, two trims, a dictionary and a cookie parse
/// per line, for every response, with or without a `Set-Cookie`. That queue carries every
/// request of the session, and measured on it this was about a tenth of a request's cost. The
/// client's session is therefore made with `httpCookieAcceptPolicy = .never`, and the client
/// stores the cookies itself from the response head, paying only when a `Set-Cookie` is there.
/// What is stored stays as the configuration said.
///
/// The client also sends the stored cookies itself (`httpShouldSetCookies` is turned off in the
/// session): URLSession put them in place of a request's own `Cookie` field, which was lost,
/// where the client sends both in one field, as the curl client does.
struct CookieJar: @unchecked Sendable {
  // HTTPCookieStorage synchronises its own state.
  let storage: HTTPCookieStorage
  /// Whether response cookies are stored (the accept policy is not `.never`).
  var stores = true
  /// Whether stored cookies are sent (the configuration's `httpShouldSetCookies`).
  var sends = true

  /// The jar for a session configuration, and the configuration with URLSession's own cookie
  /// parsing turned off; `nil` when no cookies are to be stored, or (with the configuration
  /// unchanged) when this platform's URLSession stores them cheaply itself.
  static func takingOver(_ configuration: URLSessionConfiguration) -> CookieJar? {
    #if canImport(FoundationNetworking)
      let stores = configuration.httpCookieAcceptPolicy != .never
      let sends = configuration.httpShouldSetCookies
      // Without a storage nothing is kept, but URLSession would still parse every line.
      configuration.httpCookieAcceptPolicy = .never
      configuration.httpShouldSetCookies = false
      guard stores || sends, let storage = configuration.httpCookieStorage else { return nil }
      return CookieJar(storage: storage, stores: stores, sends: sends)
    #else
      return nil
    #endif
  }

  /// The `Cookie` value of the stored cookies for `url`, or `nil` when there are none (or
  /// none are sent).
  func cookieValue(for url: URL) -> String? {
    guard sends, let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
    return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
  }

  /// Stores the cookies `response` sets for its URL, and forgets those it expires.
  ///
  /// Foundation's cookie parser on Linux keeps a cookie the server deletes (`Max-Age=0` or an
  /// `Expires` in the past) as a live cookie with an empty value; such a cookie is removed from
  /// the storage instead, as the server asked.
  func store(from response: URLResponse) {
    guard stores, let http = response as? HTTPURLResponse,
      let setCookie = http.value(forHTTPHeaderField: "Set-Cookie"), let url = http.url
    else { return }
    let expired = Self.expiredNames(in: setCookie, now: Date())
    if !expired.isEmpty {
      for cookie in storage.cookies(for: url) ?? [] where expired.contains(cookie.name) {
        storage.deleteCookie(cookie)
      }
    }
    let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": setCookie], for: url)
      .filter { !expired.contains($0.name) }
    guard !cookies.isEmpty else { return }
    storage.setCookies(cookies, for: url, mainDocumentURL: nil)
  }

  /// The names of the cookies in a `Set-Cookie` value that expire at once.
  ///
  /// Foundation joins repeated `Set-Cookie` fields with commas, and an `Expires` date has a
  /// comma of its own; a new cookie starts after a comma only where a name and `=` follow.
  static func expiredNames(in value: String, now: Date) -> Set<String> {
    var names: Set<String> = []
    for cookie in splitCookies(value) {
      let parts = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let first = parts.first, let equals = first.firstIndex(of: "=") else { continue }
      let name = String(first[..<equals])
      for attribute in parts.dropFirst() {
        let pair = attribute.split(separator: "=", maxSplits: 1).map {
          $0.trimmingCharacters(in: .whitespaces)
        }
        guard pair.count == 2 else { continue }
        if FieldName.equals(pair[0], "max-age"), let seconds = Int(pair[1]), seconds <= 0 {
          names.insert(name)
        } else if FieldName.equals(pair[0], "expires"),
          let date = HTTPDate.parseCookieDate(pair[1]), date <= now
        {
          names.insert(name)
        }
      }
    }
    return names
  }

  /// The cookie strings of a `Set-Cookie` value that may hold several, joined with commas.
  static func splitCookies(_ value: String) -> [Substring] {
    var cookies: [Substring] = []
    var start = value.startIndex
    var index = value.startIndex
    while index < value.endIndex {
      if value[index] == ",", startsCookie(value[value.index(after: index)...]) {
        cookies.append(value[start..<index])
        start = value.index(after: index)
      }
      index = value.index(after: index)
    }
    cookies.append(value[start...])
    return cookies.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
  }

  /// Whether `text` (after a comma) begins a cookie: spaces, then a name, then `=`.
  private static func startsCookie(_ text: Substring) -> Bool {
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    guard let equals = trimmed.firstIndex(of: "=") else { return false }
    let name = trimmed[..<equals]
    // RFC 6265: a cookie name is an HTTP token.
    return !name.isEmpty && name.utf8.allSatisfy(HTTPToken.isTokenByte)
  }
}
