#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The pages of a paginated endpoint, fetched as the consumer asks for them (see
/// ``HTTPClient/pages(of:paginator:maximumPages:prefetch:)``).
struct Pages<Client: HTTPClient, Resource: Sendable>: AsyncSequence, Sendable {
  typealias Element = Paginator<Resource>.Page

  let client: Client
  let first: Endpoint<Resource>
  let paginator: Paginator<Resource>
  let maximumPages: Int?
  let prefetch: Bool

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(pages: self)
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    let pages: Pages
    var nextEndpoint: Endpoint<Resource>?
    var index = 0
    var ahead: Task<Element?, any Error>?

    init(pages: Pages) {
      self.pages = pages
      nextEndpoint = pages.first
    }

    mutating func next() async throws -> Element? {
      try Task.checkCancellation()
      if let limit = pages.maximumPages, index >= limit {
        ahead?.cancel()
        return nil
      }
      let page: Element?
      if let ahead {
        self.ahead = nil
        page = try await withTaskCancellationHandler {
          try await ahead.value
        } onCancel: {
          ahead.cancel()
        }
      } else {
        guard let endpoint = nextEndpoint else { return nil }
        page = try await Self.fetch(endpoint, index: index, from: pages)
      }
      guard let page else { return nil }
      index += 1
      nextEndpoint = try pages.paginator.next(page)
      if pages.prefetch, let endpoint = nextEndpoint,
        pages.maximumPages.map({ index < $0 }) ?? true
      {
        let pages = self.pages
        let index = self.index
        ahead = Task { try await Self.fetch(endpoint, index: index, from: pages) }
        nextEndpoint = nil
      }
      return page
    }

    static func fetch(
      _ endpoint: Endpoint<Resource>,
      index: Int,
      from pages: Pages
    ) async throws -> Element? {
      let (resource, response) = try await pages.client.call(endpoint.withResponse())
      return Element(endpoint: endpoint, response: response, resource: resource, index: index)
    }
  }
}

/// The items of every page of a paginated endpoint whose resource is a sequence, in order (see
/// ``HTTPClient/items(of:paginator:maximumItems:maximumPages:prefetch:)``).
struct PageItems<Client: HTTPClient, Resource: Sequence & Sendable>: AsyncSequence, Sendable
where Resource.Element: Sendable {
  typealias Element = Resource.Element

  let pages: Pages<Client, Resource>
  let maximumItems: Int?

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(pages: pages.makeAsyncIterator(), maximumItems: maximumItems)
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    var pages: Pages<Client, Resource>.AsyncIterator
    let maximumItems: Int?
    var buffer: [Resource.Element] = []
    var position = 0
    var delivered = 0

    mutating func next() async throws -> Resource.Element? {
      if let maximumItems, delivered >= maximumItems { return nil }
      while position == buffer.count {
        guard let page = try await pages.next() else { return nil }
        buffer = Array(page.resource)
        position = 0
      }
      defer {
        position += 1
        delivered += 1
      }
      return buffer[position]
    }
  }
}

extension HTTPClient {
  /// The pages of `endpoint`, each found by `paginator` from the one before, fetched as the
  /// consumer asks for them.
  ///
  /// Every page goes through the client (its middleware: authorization, retries, caching,
  /// logging) and the endpoint's parser. The next page is fetched only when the consumer asks
  /// for it, or, with `prefetch`, while the consumer works on the current one (one page ahead,
  /// never more). Cancelling the consuming task stops the walk at once. Iterating throws the
  /// client's or the parser's error, ``InvalidRequest`` (`.pageLink`), or `CancellationError`.
  ///
  /// ```swift
  /// let pages = client.pages(of: Issues.open(), paginator: .linkHeader())
  /// for try await page in pages {
  ///   print(page.index, page.resource.count)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - endpoint: the first page.
  ///   - paginator: how to find each next page.
  ///   - maximumPages: the most pages fetched; `nil` for no limit.
  ///   - prefetch: whether the next page is fetched while the consumer works on the current one.
  public func pages<Resource: Sendable>(
    of endpoint: Endpoint<Resource>,
    paginator: Paginator<Resource>,
    maximumPages: Int? = nil,
    prefetch: Bool = false
  ) -> some AsyncSequence<Paginator<Resource>.Page, any Error> & Sendable {
    Pages(
      client: self, first: endpoint, paginator: paginator, maximumPages: maximumPages,
      prefetch: prefetch)
  }

  /// The items of every page of `endpoint`, in order, fetching pages as they are needed.
  ///
  /// Pages are fetched as ``pages(of:paginator:maximumPages:prefetch:)`` fetches them, and
  /// iterating throws what fetching a page throws.
  ///
  /// ```swift
  /// let repos = client.items(
  ///   of: GitHub.repos(org: "apple"), paginator: .linkHeader()
  /// )
  /// for try await repo in repos {
  ///   print(repo.name)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - endpoint: the first page.
  ///   - paginator: how to find each next page.
  ///   - maximumItems: the most items given; `nil` for no limit.
  ///   - maximumPages: the most pages fetched; `nil` for no limit.
  ///   - prefetch: whether the next page is fetched while the current one's items are consumed.
  public func items<Resource: Sequence & Sendable>(
    of endpoint: Endpoint<Resource>,
    paginator: Paginator<Resource>,
    maximumItems: Int? = nil,
    maximumPages: Int? = nil,
    prefetch: Bool = false
  ) -> some AsyncSequence<Resource.Element, any Error> & Sendable where Resource.Element: Sendable {
    PageItems(
      pages: Pages(
        client: self, first: endpoint, paginator: paginator, maximumPages: maximumPages,
        prefetch: prefetch),
      maximumItems: maximumItems)
  }
}
