import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How to find the next page of a paginated API: from the `Link` header, from a cursor in the
/// body, or by page number or offset.
///
/// A paginator is a plain value, named where the pages are walked:
///
/// ```swift
/// let repos = client.items(
///   of: GitHub.repos(org: "apple"), paginator: .linkHeader()
/// )
/// for try await repo in repos {
///   print(repo.name)
/// }
/// ```
public struct Paginator<Resource: Sendable>: Sendable {
  /// One page as it arrived: the endpoint that fetched it, its response head, its resource, and
  /// its place (0 for the first page).
  public struct Page: Sendable {
    /// The endpoint that fetched this page.
    public let endpoint: Endpoint<Resource>
    /// The response head.
    public let response: HTTPResponse
    /// The parsed page.
    public let resource: Resource
    /// The page's place, 0 for the first.
    public let index: Int
  }

  /// The endpoint of the page after `page`, or `nil` when `page` is the last.
  public let next: @Sendable (_ page: Page) throws -> Endpoint<Resource>?

  /// Creates a paginator from a rule for the next page.
  public init(next: @escaping @Sendable (_ page: Page) throws -> Endpoint<Resource>?) {
    self.next = next
  }

  /// The next page is the target of the link with `rel="next"` in the response's `Link` fields
  /// (RFC 8288), resolved against the page's URL; no such link ends the walk.
  ///
  /// - Parameter allowingOtherOrigins: whether a `next` link to another origin (scheme, host,
  ///   port) is followed. By default it fails the walk with ``InvalidRequest`` (`.pageLink`): the request would
  ///   carry the first request's fields, credentials included, to another server.
  public static func linkHeader(allowingOtherOrigins: Bool = false) -> Paginator {
    Paginator { page in
      let links = WebLink.parse(page.response.headerFields.values(for: "Link"))
      guard let next = links.first(where: { $0.hasRelation("next") }) else { return nil }
      let current = try page.response.url ?? page.endpoint.request().url
      guard let target = URL(string: next.target, relativeTo: current)?.absoluteURL else {
        throw InvalidRequest.pageLink(
          Redaction.standard.apply(toText: next.target), reason: "it is not a URL")
      }
      if let reason = HTTPURL.unsendableReason(target) {
        throw InvalidRequest.pageLink(Redaction.standard.apply(toText: next.target), reason: reason)
      }
      guard allowingOtherOrigins || HTTPURL.sameOrigin(current, target) else {
        throw InvalidRequest.pageLink(
          URLRedaction.redacted(target),
          reason: "it leads to another origin; allow it with linkHeader(allowingOtherOrigins: true)"
        )
      }
      var endpoint = page.endpoint
      endpoint.url = target
      endpoint.query = []
      return endpoint
    }
  }

  /// The next page asks for the cursor read from the current page, sent as the query item
  /// `name`; a `nil` or empty cursor ends the walk.
  ///
  /// ```swift
  /// .cursor(name: "after") { page in page.nextCursor }
  /// ```
  public static func cursor(
    name: String,
    _ cursor: @escaping @Sendable (Resource) -> String?
  ) -> Paginator {
    Paginator { page in
      guard let value = cursor(page.resource), !value.isEmpty else { return nil }
      return page.endpoint.replacingQuery(name, with: String(value))
    }
  }

  /// Pages by number: the first request as given (or with `first`), then `first + 1`, … in the
  /// query item `name`. The walk ends at a page with fewer than `pageSize` items (or none), or
  /// once `total` items (read from a page) have been fetched.
  ///
  /// - Parameters:
  ///   - name: the query item holding the page number.
  ///   - first: the number of the first page.
  ///   - pageSize: the items a full page holds; `nil` to stop only at an empty page.
  ///   - count: the number of items on a page.
  ///   - total: the number of items in all, when the API says so.
  public static func pageNumber(
    name: String = "page",
    first: Int = 1,
    pageSize: Int? = nil,
    count: @escaping @Sendable (Resource) -> Int,
    total: (@Sendable (Resource) -> Int?)? = nil
  ) -> Paginator {
    Paginator { page in
      let items = count(page.resource)
      if items == 0 { return nil }
      if let pageSize, items < pageSize { return nil }
      if let total = total?(page.resource), let pageSize, (page.index + 1) * pageSize >= total {
        return nil
      }
      return page.endpoint.replacingQuery(name, with: String(first + page.index + 1))
    }
  }

  /// Pages by offset: the query item `name` holds the number of items before the page
  /// (`limit` items a page, sent as the query item `limitName` when given). The walk ends at a
  /// short or empty page, or at `total` items.
  public static func offset(
    name: String = "offset",
    limit: Int,
    limitName: String? = "limit",
    count: @escaping @Sendable (Resource) -> Int,
    total: (@Sendable (Resource) -> Int?)? = nil
  ) -> Paginator {
    Paginator { page in
      let items = count(page.resource)
      if items == 0 || items < limit { return nil }
      let nextOffset = (page.index + 1) * limit
      if let total = total?(page.resource), nextOffset >= total { return nil }
      var endpoint = page.endpoint.replacingQuery(name, with: String(nextOffset))
      if let limitName { endpoint = endpoint.replacingQuery(limitName, with: String(limit)) }
      return endpoint
    }
  }
}

extension Endpoint {
  /// A copy whose query has `value` for `name`, replacing any item of that name (in ``query``
  /// and in the URL's own query).
  func replacingQuery(_ name: String, with value: String) -> Endpoint {
    var copy = self
    copy.query.removeAll { $0.name == name }
    if var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
      let items = components.queryItems, items.contains(where: { $0.name == name })
    {
      components.queryItems = items.filter { $0.name != name }
      if components.queryItems?.isEmpty == true { components.queryItems = nil }
      if let stripped = components.url { copy.url = stripped }
    }
    copy.query.append(URLQueryItem(name: name, value: value))
    return copy
  }
}

extension InvalidRequest {
  /// A `next` link the paginator does not follow; `link` is already free of credentials.
  static func pageLink(_ link: String, reason: String) -> Self {
    Self(
      .pageLink,
      subject: "The next page's link \(Redaction.standard.apply(toText: link)) is not followed",
      reason: reason, input: link)
  }
}
