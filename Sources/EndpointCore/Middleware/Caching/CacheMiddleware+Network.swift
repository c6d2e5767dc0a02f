#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CacheMiddleware {
  /// The store's key for `url`: the URL without its fragment.
  static func key(_ url: URL) -> String {
    let text = url.absoluteString
    return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
  }

  /// A stored response as the answer: `Age` set to its current age, the body left out for
  /// `HEAD`.
  func served(
    _ entry: CachedResponse,
    _ lookup: CacheLookup,
    outcome: CacheStatus.Outcome,
    request: HTTPRequest,
    forwardStatus: Int? = nil
  ) -> (HTTPResponse, HTTPBody) {
    var fields = CachedResponse.storableFields(entry.headerFields, control: lookup.control)
    fields.remove("Age")
    let age = min(max(lookup.age, 0), 2_147_483_648).rounded(.down)
    fields.append(checkedValue: String(Int(age)), for: "Age")
    let ttl = lookup.remaining.rounded(.down)
    let status = CacheStatus(
      outcome,
      timeToLive: Int(max(min(ttl, 2_147_483_648), -2_147_483_648)),
      forwardReason: forwardStatus == nil ? nil : "stale",
      forwardStatus: forwardStatus)
    let response = HTTPResponse(status: entry.status, headerFields: fields, url: entry.url)
    return (response.adding(status), request.method == .head ? .empty : HTTPBody(entry.body))
  }

  /// The `504` of `only-if-cached` when nothing usable is stored (RFC 9111 §5.2.1.7).
  func gatewayTimeout(_ request: HTTPRequest) -> (HTTPResponse, HTTPBody) {
    let response = HTTPResponse(status: 504, url: request.url)
    return (response.adding(CacheStatus(.miss, forwardReason: "miss")), .empty)
  }

  /// Sends an unsafe request on; a success forgets its URL and the same-origin `Location` and
  /// `Content-Location` (RFC 9111 §4.4).
  func forwardUnsafe(
    _ request: HTTPRequest,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let (response, body) = try await next(request)
    let safe: Set<HTTPMethod> = [.options, "TRACE"]
    guard !safe.contains(request.method), (200..<400).contains(response.status) else {
      return (response, body)
    }
    var urls = [request.url]
    for name in ["Location", "Content-Location"] {
      guard let value = response.headerFields.firstValue(for: name),
        let target = URL(string: value, relativeTo: request.url)?.absoluteURL,
        Self.sameOrigin(target, request.url)
      else { continue }
      urls.append(target)
    }
    for url in urls { try? await store.removeEntries(for: Self.key(url)) }
    return (response, body)
  }

  static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
    lhs.scheme?.lowercased() == rhs.scheme?.lowercased()
      && lhs.host?.lowercased() == rhs.host?.lowercased() && lhs.port == rhs.port
  }

  /// Sends `request` on and stores the response, as its body is read, when the rules allow.
  func fetch(
    _ request: HTTPRequest,
    control: CacheControl,
    key: String,
    reason: String,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let requestTime = now()
    let (response, body) = try await next(request)
    return await store(
      response, body, for: request, control: control, key: key, reason: reason,
      requestTime: requestTime)
  }

  /// The response on its way to the caller, with its body copied to the store when the rules
  /// allow (RFC 9111 §3).
  func store(
    _ response: HTTPResponse,
    _ body: HTTPBody,
    for request: HTTPRequest,
    control: CacheControl,
    key: String,
    reason: String,
    requestTime: Date
  ) async -> (HTTPResponse, HTTPBody) {
    let storable = isStorable(response, body: body, request: request, control: control)
    let status = CacheStatus(
      .miss, forwardReason: reason, forwardStatus: response.status, isStored: storable)
    let head = response.adding(status)
    guard storable else { return (head, body) }
    let responseTime = now()
    let vary = Dictionary(
      CachedResponse.varyNames(response.headerFields).compactMap { name in
        CachedResponse.varyValue(request.headerFields, name).map { (name, $0) }
      },
      uniquingKeysWith: { first, _ in first })
    let storedFields = CachedResponse.storableFields(
      response.headerFields, control: CacheControl(response.headerFields))
    let save: @Sendable (Data) async -> Void = { [storedFields] data in
      let entry = CachedResponse(
        url: response.url ?? request.url, status: response.status,
        headerFields: storedFields, body: data, requestTime: requestTime,
        responseTime: responseTime, varyValues: vary)
      if entry.isPartial {
        await self.savePartial(entry, for: request, key: key)
      } else {
        await self.save(entry, for: request, key: key)
      }
    }
    if let data = body.data {
      // Already whole in memory: stored now, and the caller keeps the in-memory fast path.
      if data.count <= maximumBodySize { await save(data) }
      return (head, body)
    }
    return (
      head,
      HTTPBody(
        CachingBody(base: body, limit: maximumBodySize, store: save),
        length: body.length, trailers: body.trailers)
    )
  }

  private func isStorable(
    _ response: HTTPResponse,
    body: HTTPBody,
    request: HTTPRequest,
    control: CacheControl
  ) -> Bool {
    let fields = response.headerFields
    let responseControl = CacheControl(fields)
    // must-understand: stored only with a status whose rules the cache applies, and then
    // despite no-store (RFC 9111 §5.2.2.3).
    let mustUnderstand = responseControl.contains("must-understand")
    if mustUnderstand, !CachedResponse.understoodStatuses.contains(response.status) {
      return false
    }
    // A part is stored when it holds one byte range of a representation of known length, not
    // content-coded (its bytes would be the coded ones); any other response with
    // `Content-Range` (a `416`, a `200` that carries one) is not. The answer to a `Range`
    // request is stored only when it is a `200` or a `206`: another status may be about the
    // range, and the store would serve it to a request without one.
    let rangeIsReadable =
      response.status == 206
      ? ContentRange(fields.values(for: "Content-Range")) != nil
        && !fields.contains("Content-Encoding")
      : !fields.contains("Content-Range")
    guard request.method == .get, !control.contains("no-store"),
      mustUnderstand || !responseControl.contains("no-store"),
      response.status >= 200, response.status != 304, rangeIsReadable,
      !request.headerFields.contains("Range") || [200, 206].contains(response.status),
      !CachedResponse.varyNames(fields).contains("*"),
      (body.length ?? 0) <= Int64(maximumBodySize)
    else { return false }
    return CachedResponse.heuristicallyCacheable.contains(response.status)
      || responseControl.contains("max-age") || fields.contains("Expires")
      || responseControl.contains("public") || responseControl.contains("private")
  }

  /// Stores `entry` in place of the variants `request` selects.
  func save(_ entry: CachedResponse, for request: HTTPRequest, key: String) async {
    var entries = (try? await store.entries(for: key)) ?? []
    entries.removeAll { $0.matches(request) || $0.varyValues == entry.varyValues }
    entries.append(entry)
    try? await store.setEntries(entries, for: key)
  }

  /// Forgets the stored variant `entry`, which `request` selected.
  func remove(_ entry: CachedResponse, for request: HTTPRequest, key: String) async {
    var entries = (try? await store.entries(for: key)) ?? []
    entries.removeAll { $0.matches(request) || $0 == entry }
    try? await store.setEntries(entries, for: key)
  }

  /// Sends a `HEAD` on and freshens the stored `GET` response with a `200` to it (RFC 9111
  /// §4.3.5): the `HEAD` response's fields update it as a `304`'s would when its entity tag,
  /// `Last-Modified` and `Content-Length` are the stored response's; otherwise (or when the
  /// `HEAD` response forbids storing) the stored response is forgotten.
  func freshen(
    _ entry: CachedResponse,
    key: String,
    with request: HTTPRequest,
    control: CacheControl,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let requestTime = now()
    let (response, body) = try await next(request)
    if response.status == 200, !control.contains("no-store") {
      if entry.isDescribed(byHead: response.headerFields),
        !CacheControl(response.headerFields).contains("no-store")
      {
        let updated = entry.updated(
          with: response, requestTime: requestTime, responseTime: now())
        await save(updated, for: request, key: key)
      } else {
        await remove(entry, for: request, key: key)
      }
    }
    return (
      response.adding(
        CacheStatus(.miss, forwardReason: "stale", forwardStatus: response.status)), body
    )
  }

  /// Validates a stored response (RFC 9111 §4.3): a `304` updates and serves it, a `5xx` or a
  /// failure serves it where `stale-if-error` allows, anything else replaces it.
  func revalidate(
    _ request: HTTPRequest,
    entry: CachedResponse,
    key: String,
    control: CacheControl,
    next: Next,
    background: Bool
  ) async throws -> (HTTPResponse, HTTPBody) {
    var conditional = request
    if let eTag = entry.eTag {
      conditional.headerFields.append(checkedValue: eTag, for: "If-None-Match")
    }
    if let lastModified = entry.lastModified {
      conditional.headerFields.append(checkedValue: lastModified, for: "If-Modified-Since")
    }
    let requestTime = now()
    let response: HTTPResponse
    let body: HTTPBody
    do {
      (response, body) = try await next(conditional)
    } catch {
      if let stale = staleIfError(entry, control: control, request: request, status: nil) {
        return stale
      }
      throw error
    }
    if response.status == 304, entry.isSelected(byNotModified: response.headerFields) {
      await body.discard()
      let updated = entry.updated(
        with: response, requestTime: requestTime, responseTime: now())
      // A request's no-store forbids storing any part of the response (RFC 9111 §5.2.1.5).
      if !control.contains("no-store") { await save(updated, for: request, key: key) }
      let lookup = CacheLookup(entry: updated, now: now(), heuristicLimit: heuristicLimit)
      return served(updated, lookup, outcome: .revalidated, request: request, forwardStatus: 304)
    }
    if response.status >= 500,
      let stale = staleIfError(entry, control: control, request: request, status: response.status)
    {
      await body.discard()
      return stale
    }
    if response.status == 304 {
      // A 304 whose validator selects no stored response updates none (RFC 9111 §4.3.4): the
      // stored one is not the current representation, so it is forgotten, and the request,
      // which the caller sent without conditions, is sent again without them.
      await body.discard()
      await remove(entry, for: request, key: key)
      return try await fetch(request, control: control, key: key, reason: "stale", next: next)
    }
    let (head, stored) = await store(
      response, body, for: request, control: control, key: key, reason: "stale",
      requestTime: requestTime)
    if background { _ = try? await stored.collect(upTo: Int.max) }
    return (head, stored)
  }

  /// The stored response as the answer to a failed revalidation, when `stale-if-error` (of
  /// the response or the request) covers its staleness and `must-revalidate` does not forbid it.
  private func staleIfError(
    _ entry: CachedResponse,
    control: CacheControl,
    request: HTTPRequest,
    status: Int?
  ) -> (HTTPResponse, HTTPBody)? {
    let entryControl = entry.cacheControl
    guard !entryControl.contains("must-revalidate"),
      let window = entryControl.seconds("stale-if-error") ?? control.seconds("stale-if-error")
    else { return nil }
    let lookup = CacheLookup(entry: entry, now: now(), heuristicLimit: heuristicLimit)
    guard lookup.staleness <= Double(window) else { return nil }
    return served(entry, lookup, outcome: .stale, request: request, forwardStatus: status)
  }
}
