import EndpointCore
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct HTTPBodyTests {
  private func chunks(of body: HTTPBody) async throws -> [Data] {
    var result: [Data] = []
    for try await chunk in body { result.append(chunk) }
    return result
  }

  @Test func inMemoryBodyIsTheFastPath() async throws {
    let body = HTTPBody(bytes("hello"))
    #expect(body.data == bytes("hello"))
    #expect(body.length == 5)
    #expect(body.fileURL == nil)
    #expect(body.isReplayable)
    #expect(try await body.collect(upTo: 5) == bytes("hello"))
    #expect(try await chunks(of: body) == [bytes("hello")])
    #expect(try await chunks(of: body) == [bytes("hello")], "it can be read again")
    #expect(HTTPBody("text").data == bytes("text"))
  }

  @Test func emptyBodyHasNoChunks() async throws {
    #expect(HTTPBody.empty.length == 0)
    #expect(try await chunks(of: .empty).isEmpty)
    #expect(try await HTTPBody.empty.collect(upTo: 0) == Data())
  }

  @Test func fileBodyIsReadInChunksAndCanBeReadAgain() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.appending(path: "big.bin")
      // Larger than one read, not a multiple of it.
      let contents = Data((0..<(150 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
      try contents.write(to: file)
      let body = try HTTPBody(contentsOf: file)
      #expect(body.length == Int64(contents.count))
      #expect(body.fileURL == file)
      #expect(body.data == nil)
      #expect(body.isReplayable)
      let read = try await chunks(of: body)
      #expect(read.count >= 3)
      #expect(read.allSatisfy { !$0.isEmpty && $0.count <= 64 * 1024 })
      #expect(read.reduce(Data(), +) == contents)
      #expect(try await body.collect(upTo: contents.count) == contents, "read again from the start")
    }
  }

  @Test func emptyFileBodyHasNoChunks() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.appending(path: "empty")
      try Data().write(to: file)
      let body = try HTTPBody(contentsOf: file)
      #expect(body.length == 0)
      #expect(try await chunks(of: body).isEmpty)
    }
  }

  @Test func aFileRemovedBeforeReadingIsABodyError() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.appending(path: "gone")
      try bytes("x").write(to: file)
      let body = try HTTPBody(contentsOf: file)
      try FileManager.default.removeItem(at: file)
      await expectInvalidRequest(.body) { try await body.collect(upTo: 10) }
    }
  }

  @Test func streamBodyIsReadOnce() async throws {
    let body = HTTPBody(Chunks(["a", "bc"]), length: 3)
    #expect(!body.isReplayable)
    #expect(body.data == nil)
    #expect(body.length == 3)
    #expect(try await chunks(of: body) == [bytes("a"), bytes("bc")])
    let again = await expectInvalidRequest(.bodyAlreadyConsumed) { try await chunks(of: body) }
    await expectInvalidRequest(.bodyAlreadyConsumed) { try await body.collect(upTo: 10) }
    #expect(
      again?.description
        == "The body was already read: a streamed body can be read only once; "
        + "use an in-memory or file body where it must be read again")
  }

  @Test func streamErrorsPassThrough() async throws {
    let body = HTTPBody(Chunks(["a"], failure: TestFailure(message: "reset")))
    await #expect(throws: TestFailure(message: "reset")) { try await body.collect(upTo: 10) }
  }

  @Test func collectChecksTheDeclaredLengthBeforeReading() async throws {
    let reads = EventLog()
    let stream = Chunks(["never read"])
    let counted = CountingChunks(base: stream, log: reads)
    let body = HTTPBody(counted, length: 1000)
    let error = try await #require(throws: TransportFailure.self) {
      try await body.collect(upTo: 999)
    }
    #expect(error.kind == .responseTooLarge)
    #expect(error == TransportFailure.responseTooLarge(limit: 999, received: 1000))
    #expect(reads.events.isEmpty, "nothing was read")
    #expect(try await body.collect(upTo: 2000) == bytes("never read"), "still unread")
  }

  @Test func collectStopsAStreamAsSoonAsItGrowsPastTheLimit() async throws {
    let reads = EventLog()
    let body = HTTPBody(CountingChunks(base: Chunks(["12345", "67890", "abc", "def"]), log: reads))
    let error = try await #require(throws: TransportFailure.self) {
      try await body.collect(upTo: 12)
    }
    #expect(error.kind == .responseTooLarge)
    #expect(error.limit == 12)
    #expect(error.byteCount == 13)
    #expect(reads.events.count == 3, "the fourth chunk is never read")
  }

  @Test func negativeDeclaredLengthCountsAsUnknown() async throws {
    let body = HTTPBody(Chunks(["abc"]), length: -1)
    #expect(body.length == nil)
    #expect(try await body.collect(upTo: 3) == bytes("abc"))
  }

  @Test func hugeDeclaredLengthUnderTheLimitDoesNotAllocateItUpFront() async throws {
    // A false Content-Length of 1 TiB with a caller who allows anything: reading must still work.
    let body = HTTPBody(Chunks(["small"]), length: 1 << 40)
    #expect(try await body.collect(upTo: Int.max) == bytes("small"))
  }

  @Test func collectAcceptsABodyOfExactlyTheLimit() async throws {
    let body = HTTPBody(Chunks(["12345", "67890"]))
    #expect(try await body.collect(upTo: 10) == bytes("1234567890"))
  }

  @Test func inMemoryBodyPastTheLimitIsTooLarge() async throws {
    await #expect(throws: TransportFailure.responseTooLarge(limit: 4, received: 5)) {
      try await HTTPBody(bytes("hello")).collect(upTo: 4)
    }
    #expect(
      TransportFailure.responseTooLarge(limit: 4, received: 5).description.contains(
        "5 bytes exceeds"))
  }
}

/// Wraps chunks and records each read, to prove what was and was not read.
private struct CountingChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == Data {
  typealias Element = Data

  let base: Base
  let log: EventLog

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), log: log)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let log: EventLog

    mutating func next() async throws -> Data? {
      guard let chunk = try await base.next() else { return nil }
      log.record("read \(chunk.count)")
      return chunk
    }
  }
}

@Suite struct BodyPreviewTests {
  @Test func shortTextIsShownWhole() {
    #expect(Redaction.none.preview(of: bytes("hello world")) == "hello world")
    #expect(Redaction.none.preview(of: bytes("line 1\r\n\tline 2")) == "line 1\r\n\tline 2")
  }

  @Test func longTextIsCutWithACount() {
    #expect(Redaction.none.preview(of: bytes("hello world"), limit: 5) == "hello… (6 more bytes)")
    #expect(Redaction.none.preview(of: bytes("hello"), limit: 5) == "hello")
  }

  @Test func cutFallsOnACharacterBoundary() {
    // "é" is 2 bytes, "✓" 3, "😀" 4: a cut inside any of them backs off to its start.
    #expect(Redaction.none.preview(of: bytes("aé"), limit: 2) == "a… (2 more bytes)")
    #expect(Redaction.none.preview(of: bytes("a✓b"), limit: 3) == "a… (4 more bytes)")
    #expect(Redaction.none.preview(of: bytes("a✓b"), limit: 4) == "a✓… (1 more bytes)")
    #expect(Redaction.none.preview(of: bytes("😀😀"), limit: 7) == "😀… (4 more bytes)")
    #expect(Redaction.none.preview(of: bytes("😀"), limit: 1) == "… (4 more bytes)")
  }

  @Test func binaryIsDescribedBySize() {
    #expect(
      Redaction.none.preview(of: Data([0x89, 0x50, 0x4E, 0x47])) == "<4 bytes of binary data>")
    #expect(Redaction.none.preview(of: Data([0x41, 0x00, 0x42])) == "<3 bytes of binary data>")
  }

  @Test func emptyIsSaidSo() {
    #expect(Redaction.none.preview(of: Data()) == "<empty>")
  }

  @Test func nonPositiveLimitShowsNoText() {
    #expect(Redaction.none.preview(of: bytes("abc"), limit: 0) == "… (3 more bytes)")
    #expect(Redaction.none.preview(of: bytes("abc"), limit: -5) == "… (3 more bytes)")
  }

  @Test func dataSliceIsPreviewedFromItsOwnStart() {
    let data = bytes("xxhello")
    let slice = data[2...]
    #expect(Redaction.none.preview(of: slice, limit: 3) == "hel… (2 more bytes)")
  }
}
