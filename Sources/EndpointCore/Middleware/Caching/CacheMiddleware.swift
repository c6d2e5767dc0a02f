#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A private HTTP cache (RFC 9111) as middleware: fresh responses are served without the
/// network, stale ones are revalidated with `If-None-Match`/`If-Modified-Since`.
///
/// ```swift
/// let store = try CacheMiddleware.diskStore(
///   directory: cachesURL.appending(path: "api"), limit: 50 << 20)
/// let client = transport.with(CacheMiddleware(store: store))
/// let (response, body) = try await client.send(request)
/// print(response.cacheStatus as Any)   // Endpoint; hit; ttl=42
/// ```
///
/// Every `GET` and `HEAD` that passes it gets a `Cache-Status` member (RFC 9211) saying how it
/// was served; read it with ``HTTPResponse/cacheStatus``. List it after the middleware that add
/// fields the server varies on (`Accept-Language`, authorization); a ``LoggingMiddleware``
/// listed before it logs every call with its `Cache-Status`, hits included.
///
/// What it does, in short: it stores responses to `GET` that the rules allow, bodies up to
/// ``maximumBodySize``, as the caller reads them (an abandoned or failed body is not stored);
/// serves them while fresh (`max-age`, `Expires`, heuristics on `Last-Modified`), honouring the
/// request's `no-cache`, `no-store`, `max-age`, `max-stale`, `min-fresh` and `only-if-cached`;
/// matches `Vary`; updates an entry from a `304`; serves stale where `stale-while-revalidate`
/// or `stale-if-error` allow; answers `HEAD` from a stored `GET`, and freshens that `GET` from a
/// `HEAD` response; and forgets a URL after a successful `POST`, `PUT`, `PATCH` or `DELETE` to
/// it. It never stores nor serves `Connection` and the other hop-by-hop fields; it keeps
/// `Set-Cookie`, as a private cache may, and a hit never reaches the transport's cookie store.
/// The trailer fields of a response from the network reach the caller; a hit has none.
/// A `206` with one byte range is stored beside the complete response, and joins a stored
/// part of the same representation (the same strong entity tag) that it touches. A `Range`
/// request for one byte range is answered with a `206` from a fresh stored `200`, or from a
/// fresh stored `206` that holds the whole range; `If-Range` lets the store answer only with
/// the same strong entity tag. Requests for several ranges, requests with their own other
/// conditional fields, and downloads to a file pass through untouched. The conformance table
/// in the Caching article lists every rule.
public struct CacheMiddleware: Middleware {
  /// Where responses are kept.
  public let store: any CacheStore
  /// The largest body stored, in bytes; larger responses pass through uncached.
  public let maximumBodySize: Int
  /// The longest heuristic freshness, for responses with `Last-Modified` and no explicit
  /// lifetime.
  public let heuristicLimit: Duration
  let now: @Sendable () -> Date
  let revalidations = CacheRevalidations()

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - store: where responses are kept; a 10 MiB ``memoryStore(limit:)`` unless given.
  ///   - maximumBodySize: the largest body stored, in bytes; 1 MiB unless given.
  ///   - heuristicLimit: the longest heuristic freshness; one day unless given.
  ///   - now: the current time; tests pass a manual one.
  public init(
    store: any CacheStore = CacheMiddleware.memoryStore(),
    maximumBodySize: Int = 1024 * 1024,
    heuristicLimit: Duration = .seconds(86_400),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.store = store
    self.maximumBodySize = maximumBodySize
    self.heuristicLimit = heuristicLimit
    self.now = now
  }

  /// Waits until the background revalidations started so far (for
  /// `stale-while-revalidate`) have finished and stored their result.
  public func waitForBackgroundRevalidations() async {
    await revalidations.waitForAll()
  }

  /// Answers `request` from the store when the rules allow, else sends it on and stores the
  /// response when they allow.
  ///
  /// - Throws: the error of `next`, unless `stale-if-error` lets a stored response answer.
  public func intercept(
    _ request: HTTPRequest,
    next: @escaping Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let method = request.method
    guard method == .get || method == .head else {
      return try await forwardUnsafe(request, next: next)
    }
    // A download's body goes to a file: the store cannot answer it nor keep its body.
    if TransferContext.isDownload { return try await next(request) }
    let fields = request.headerFields
    let bypassing = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since"]
    let isRange = fields.contains("Range")
    // If-Range without Range means nothing to a server (RFC 9110 §13.1.5): not the cache's.
    if bypassing.contains(where: fields.contains) || (isRange && method != .get)
      || (!isRange && fields.contains("If-Range"))
    {
      return try await forwardAsked(request, next: next)
    }
    if isRange { return try await answerRange(request, next: next) }
    let control = CacheControl(fields, isRequest: true)
    let key = Self.key(request.url)
    let variants = (try? await store.entries(for: key)) ?? []
    // A stored part answers only the ranges it holds.
    guard let entry = variants.last(where: { !$0.isPartial && $0.matches(request) }) else {
      if control.contains("only-if-cached") { return gatewayTimeout(request) }
      let reason =
        variants.isEmpty
        ? "uri-miss" : variants.contains(where: { $0.matches(request) }) ? "partial" : "vary-miss"
      return try await fetch(request, control: control, key: key, reason: reason, next: next)
    }
    let lookup = CacheLookup(entry: entry, now: now(), heuristicLimit: heuristicLimit)
    let entryControl = lookup.control
    let mustValidate = entryControl.hasUnqualifiedNoCache || control.contains("no-cache")
    let mustRevalidate = entryControl.contains("must-revalidate")
    if mayServeFresh(entry, lookup, control: control) {
      return served(entry, lookup, outcome: .hit, request: request)
    }
    if !mustValidate, ageAllowed(entry, lookup, control: control) {
      if !lookup.isFresh, !mustRevalidate, control.contains("max-stale") {
        let allowed =
          control.directives["max-stale"] == .some(nil)
          ? Double.infinity
          : Double(control.seconds("max-stale") ?? 0)
        if lookup.staleness <= allowed {
          return served(entry, lookup, outcome: .stale, request: request)
        }
      }
    }
    if control.contains("only-if-cached") { return gatewayTimeout(request) }
    if method == .head {
      return try await freshen(entry, key: key, with: request, control: control, next: next)
    }
    if !mustValidate, !mustRevalidate, !lookup.isFresh,
      let window = entryControl.seconds("stale-while-revalidate"),
      lookup.staleness <= Double(window)
    {
      revalidations.start(key) {
        _ = try? await self.revalidate(
          request, entry: entry, key: key, control: control,
          next: next, background: true)
      }
      return served(entry, lookup, outcome: .stale, request: request)
    }
    return try await revalidate(
      request, entry: entry, key: key, control: control, next: next,
      background: false)
  }
}

extension CacheMiddleware {
  /// Whether the request's `max-age` allows the stored response's age; an immutable fresh
  /// response is not revalidated even when the request asks for a younger one (a reload's
  /// `max-age=0`): RFC 8246 §2.
  func ageAllowed(_ entry: CachedResponse, _ lookup: CacheLookup, control: CacheControl) -> Bool {
    if lookup.control.contains("immutable"), lookup.isFresh { return true }
    return control.seconds("max-age").map { lookup.age <= Double($0) } ?? true
  }

  /// Whether the stored response may answer the request without the network while fresh
  /// (RFC 9111 §4.2): no `no-cache` on either side, an age the request allows, and at least
  /// its `min-fresh` left.
  func mayServeFresh(_ entry: CachedResponse, _ lookup: CacheLookup, control: CacheControl)
    -> Bool
  {
    guard !lookup.control.hasUnqualifiedNoCache, !control.contains("no-cache"),
      ageAllowed(entry, lookup, control: control), lookup.isFresh
    else { return false }
    return lookup.remaining >= Double(control.secondsOrLongest("min-fresh") ?? 0)
  }

  /// Sends a request the cache does not answer on, untouched, and stores nothing of it.
  func forwardAsked(_ request: HTTPRequest, next: Next) async throws -> (HTTPResponse, HTTPBody) {
    let (response, body) = try await next(request)
    return (
      response.adding(
        CacheStatus(.miss, forwardReason: "request", forwardStatus: response.status)), body
    )
  }
}
