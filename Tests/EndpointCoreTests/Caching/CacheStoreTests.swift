import EndpointTestSupport
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

private func entry(_ body: String, at seconds: Double = 0) throws -> CachedResponse {
  CachedResponse(
    url: testURL(), status: 200,
    headerFields: try HTTPFields([("Cache-Control", "max-age=60"), ("ETag", "\"x\"")]),
    body: Data(body.utf8), requestTime: Date(timeIntervalSince1970: seconds),
    responseTime: Date(timeIntervalSince1970: seconds + 1), varyValues: ["accept": "a/b"])
}

@Suite struct MemoryCacheStoreTests {
  @Test func leastRecentlyUsedKeysAreEvictedPastTheLimit() throws {
    let one = try entry(String(repeating: "x", count: 400))
    let store = MemoryCacheStore(limit: 3 * one.size + 30)
    for key in ["a", "b", "c"] { store.setEntries([one], for: key) }
    _ = store.entries(for: "a")
    store.setEntries([one], for: "d")
    #expect(store.entries(for: "b").isEmpty)
    #expect(store.entries(for: "a") == [one])
    #expect(store.entries(for: "c") == [one])
    #expect(store.entries(for: "d") == [one])
    #expect(store.size <= store.limit)
  }

  @Test func removeAllForgetsEverything() throws {
    let store = MemoryCacheStore()
    store.setEntries([try entry("a")], for: "a")
    store.setEntries([try entry("b")], for: "b")
    store.removeAll()
    #expect(store.entries(for: "a").isEmpty)
    #expect(store.size == 0)
  }

  @Test func anEntryLargerThanTheLimitIsNotStored() throws {
    let store = MemoryCacheStore(limit: 100)
    store.setEntries([try entry(String(repeating: "x", count: 200))], for: "a")
    #expect(store.entries(for: "a").isEmpty)
    #expect(store.size == 0)
  }
}

@Suite struct DiskCacheStoreTests {
  @Test func entriesSurviveARestart() throws {
    try withTemporaryDirectory { directory in
      let stored = [try entry("one"), try entry("two", at: 5)]
      try DiskCacheStore(directory: directory).setEntries(stored, for: "k")
      let reopened = try DiskCacheStore(directory: directory)
      #expect(reopened.entries(for: "k") == stored)
      #expect(reopened.size > 0)
    }
  }

  /// The request's URL is the key: its user information and secret query values never reach
  /// the file, yet the entry reads back under its full URL, and a key that differs only in a
  /// secret reads nothing.
  @Test func noURLCredentialIsWrittenToTheFile() throws {
    try withTemporaryDirectory { directory in
      let key = "https://me:canary-password@api.example.com/items?api_key=canary-key&page=2"
      let redirected = try makeURL("https://cdn.example.com/f?X-Amz-Signature=canary-sig&n=1")
      var own = try entry("own")
      own.url = try makeURL(key)
      var moved = try entry("moved")
      moved.url = redirected
      try DiskCacheStore(directory: directory).setEntries([own, moved], for: key)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(files.count == 1)
      let written = String(
        decoding: try Data(contentsOf: directory.appending(path: files[0])), as: UTF8.self)
      #expect(!written.contains("canary"), "\(written)")
      #expect(written.contains("page=2"))

      let reopened = try DiskCacheStore(directory: directory)
      let read = reopened.entries(for: key)
      #expect(
        read.map(\.url) == [
          try makeURL(key),
          try makeURL(
            "https://cdn.example.com/f?X-Amz-Signature=%3Credacted%3E&n=1"),
        ])
      #expect(read.map(\.body) == [Data("own".utf8), Data("moved".utf8)])
      let other = "https://me:other@api.example.com/items?api_key=canary-key&page=2"
      try FileManager.default.moveItem(
        at: directory.appending(path: files[0]),
        to: directory.appending(path: DiskCacheStore.fileName(for: other)))
      #expect(try DiskCacheStore(directory: directory).entries(for: other).isEmpty)
    }
  }

  @Test func aTruncatedOrCorruptFileIsAMissAndIsRemoved() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appending(path: DiskCacheStore.fileName(for: "k"))
      for damage in ["truncate", "flip", "garbage", "empty"] {
        try DiskCacheStore(directory: directory).setEntries([try entry("body")], for: "k")
        var data = try Data(contentsOf: file)
        switch damage {
        case "truncate": data = data.prefix(data.count - 3)
        case "flip": data[data.count / 2] ^= 0x01
        case "garbage": data = Data("not a cache file".utf8)
        default: data = Data()
        }
        try data.write(to: file)
        let store = try DiskCacheStore(directory: directory)
        #expect(store.entries(for: "k").isEmpty, "\(damage)")
        #expect(!FileManager.default.fileExists(atPath: file.path), "\(damage)")
        #expect(store.size == 0, "\(damage)")
      }
    }
  }

  @Test func leastRecentlyUsedFilesAreDeletedPastTheLimit() throws {
    try withTemporaryDirectory { directory in
      let one = try entry(String(repeating: "x", count: 1000))
      let fileSize = DiskCacheFile.encode([one], key: "a").count
      let store = try DiskCacheStore(directory: directory, limit: 3 * fileSize + 10)
      for key in ["a", "b", "c"] { try store.setEntries([one], for: key) }
      _ = store.entries(for: "a")
      try store.setEntries([one], for: "d")
      #expect(store.entries(for: "b").isEmpty)
      #expect(store.entries(for: "a") == [one])
      #expect(store.size <= store.limit)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(files.count == 3)
    }
  }

  @Test func aMiddlewareOnTheDiskStoreServesHitsAfterARestart() async throws {
    try await withTemporaryDirectory { directory in
      let first = CacheHarness(store: try DiskCacheStore(directory: directory)) { _, index, _ in
        reply(
          200, headers: [("Cache-Control", "max-age=60"), ("Vary", "Accept")], body: "v\(index)")
      }
      _ = try await first.get(headers: [("Accept", "text/plain")])
      let second = CacheHarness(store: try DiskCacheStore(directory: directory)) { _, index, _ in
        reply(200, body: "other\(index)")
      }
      // Both harnesses start at the same instant, so the entry is as fresh as when stored.
      #expect(try await second.get(headers: [("Accept", "text/plain")]) == (.hit, "v0"))
      #expect(try await second.get(headers: [("Accept", "text/html")]) == (.miss, "other0"))
    }
  }

  @Test func removeAllDeletesEveryEntryFileAndNothingElse() throws {
    try withTemporaryDirectory { directory in
      try Data("mine".utf8).write(to: directory.appending(path: "notes.txt"))
      let store = try DiskCacheStore(directory: directory)
      try store.setEntries([try entry("a")], for: "a")
      try store.setEntries([try entry("b")], for: "b")
      store.removeAll()
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
      #expect(store.size == 0)
      #expect(try DiskCacheStore(directory: directory).entries(for: "a").isEmpty)
    }
  }

  @Test func aKeyWhoseFileHoldsAnotherKeyIsAMiss() throws {
    let data = DiskCacheFile.encode([try entry("one")], key: "a")
    #expect(DiskCacheFile.decode(data, key: "b") == nil)
    #expect(DiskCacheFile.decode(data, key: "a")?.first?.body == Data("one".utf8))
  }
}

@Suite struct MemoryCacheStoreOrderTests {
  @Test func evictionFollowsUseOrderOverManyUses() throws {
    let one = try entry("x")
    let store = MemoryCacheStore(limit: 10 * (one.size + 3))
    // Many uses of a few keys, then new keys: the least recently used go first, in order.
    for round in 0..<200 {
      for key in ["k0", "k1", "k2", "k3", "k4"] where round == 0 || key != "k2" {
        if round == 0 {
          store.setEntries([one], for: key)
        } else {
          _ = store.entries(for: key)
        }
      }
    }
    for index in 0..<6 { store.setEntries([one], for: "n\(index)") }
    #expect(store.entries(for: "k2").isEmpty)
    for key in ["k0", "k1", "k3", "k4"] { #expect(store.entries(for: key) == [one], "\(key)") }
    #expect(store.size <= store.limit)
  }
}

@Suite struct MemoryCacheStoreBookkeepingTests {
  @Test func theUseOrderStaysBoundedWhenOneKeyIsReadOverAndOver() throws {
    let store = MemoryCacheStore()
    store.setEntries([try entry("x")], for: "only")
    for _ in 0..<10_000 { _ = store.entries(for: "only") }
    #expect(store.recordedUses <= 2 * 1 + 17)
  }
}
