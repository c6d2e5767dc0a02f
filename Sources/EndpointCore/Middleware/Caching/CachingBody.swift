#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A response body that keeps a copy of the bytes as the caller reads them and hands it to
/// `store` when the body ends: a body that fails, is abandoned, or grows past `limit` is not
/// stored.
struct CachingBody: AsyncSequence, Sendable {
  typealias Element = Data

  let base: HTTPBody
  let limit: Int
  let store: @Sendable (Data) async -> Void

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), limit: limit, store: store)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: HTTPBody.AsyncIterator
    let limit: Int
    let store: @Sendable (Data) async -> Void
    var copy: Data? = Data()

    init(base: HTTPBody.AsyncIterator, limit: Int, store: @escaping @Sendable (Data) async -> Void)
    {
      self.base = base
      self.limit = limit
      self.store = store
    }

    mutating func next() async throws -> Data? {
      guard let chunk = try await base.next() else {
        if let copy {
          self.copy = nil
          await store(copy)
        }
        return nil
      }
      if let count = copy?.count {
        if count + chunk.count > limit {
          copy = nil
        } else {
          copy?.append(chunk)
        }
      }
      return chunk
    }
  }
}
