import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// Content codings on the wire, from the fault server's `/coded` bodies: decoded completely or
/// an error on the curl client; where Foundation decodes inside its libcurl, the URLSession
/// client's outcome is asserted as measured and listed in "The transport on Linux".
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct ContentCodingTests {
  /// The text of the fault server's stacked and unknown codings.
  static let text = Data(String(repeating: "endpoint coded body ", count: 500).utf8)

  /// The body of `/coded?body=name` (with `query` added), read whole.
  static func fetch(
    _ name: String,
    _ query: String = "",
    over transport: TransportUnderTest,
    maximumResponseSize: Int? = nil
  ) async throws -> (HTTPResponse, Data) {
    let client = try transport.makeClient(maximumResponseSize: maximumResponseSize)
    let url = try TestServers.fault.adding("/coded?body=\(name)\(query)")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    return (response, try await body.collect())
  }

  /// The failure of reading `/coded?body=name`, which must be a `TransportFailure`.
  static func failure(
    _ name: String,
    _ query: String = "",
    over transport: TransportUnderTest,
    maximumResponseSize: Int? = nil
  ) async throws -> TransportFailure {
    try await #require(throws: TransportFailure.self) {
      _ = try await fetch(name, query, over: transport, maximumResponseSize: maximumResponseSize)
    }
  }

  // MARK: - gzip members and what follows them

  @Test(arguments: ["", "&length=1", "&pause_ms=50&pause_bytes=40"])
  func severalGzipMembersDecodeToAllOfTheirData(query: String) async throws {
    let (response, data) = try await Self.fetch("members", query, over: .curl)
    #expect(String(decoding: data, as: UTF8.self) == "first member, second member")
    #expect(response.headerFields["Content-Encoding"] == "gzip")
    let (_, afterEmpty) = try await Self.fetch("empty-member", query, over: .curl)
    #expect(String(decoding: afterEmpty, as: UTF8.self) == "after an empty member")
  }

  @Test func urlSessionFailsASecondGzipMember() async throws {
    // Foundation's libcurl stops at the end of the first member and fails the transfer (a
    // difference listed in "The transport on Linux"): should it start to decode the second,
    // this fails and the article changes.
    let failure = try await Self.failure("members", "&length=1", over: .urlSession)
    #expect(failure.kind == .malformedResponse, "\(failure)")
  }

  @Test(arguments: TransportUnderTest.allCases, ["", "&pause_ms=50"])
  func bytesAfterAGzipMemberThatStartNoOtherMemberFail(
    transport: TransportUnderTest,
    query: String
  ) async throws {
    for name in ["trailing", "trailing-zeros"] {
      let failure = try await Self.failure(name, query, over: transport)
      #expect(failure.kind == .malformedResponse, "\(name): \(failure)")
      if transport == .curl {
        #expect(
          failure.description.contains("after the end of a gzip member"), "\(name): \(failure)")
      }
    }
  }

  @Test(arguments: ["deflate-trailing", "br-trailing", "zstd-trailing"])
  func bytesAfterTheEndOfOtherCodingsFail(name: String) async throws {
    let failure = try await Self.failure(name, over: .curl)
    #expect(failure.kind == .malformedResponse)
    #expect(failure.description.contains("after the end of"), "\(failure)")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aCorruptBodyFails(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/gzip-body?size=100000&corrupt=1&length=1")
    let failure = await #expect(throws: TransportFailure.self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect()
    }
    #expect(failure?.kind == .malformedResponse, "\(String(describing: failure))")
  }

  // MARK: - Stacked codings

  @Test(
    arguments: TransportUnderTest.allCases,
    ["gzip-gzip", "deflate-gzip", "gzip-x5"])
  func stackedCodingsAreDecodedLayerByLayer(
    transport: TransportUnderTest,
    name: String
  ) async throws {
    for query in ["", "&length=1"] {
      let (_, data) = try await Self.fetch(name, query, over: transport)
      #expect(data == Self.text, "\(name)\(query): \(data.count) bytes")
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func moreCodingsThanTheBoundFail(transport: TransportUnderTest) async throws {
    let failure = try await Self.failure("gzip-x6", "&length=1", over: transport)
    #expect(failure.kind == .malformedResponse, "\(failure)")
    if transport == .curl {
      #expect(failure.description.contains("at most \(ContentDecoder.maximumCodings)"))
      #expect(failure.description.contains("6 content codings"))
    }
  }

  @Test func aStackCutShortFailsOverCurl() async throws {
    let failure = try await Self.failure("gzip-gzip", "&cut=10", over: .curl)
    #expect(failure.kind == .malformedResponse)
    #expect(failure.description.contains("ended before the end of its compressed stream"))
  }

  // MARK: - br and zstd

  @Test(arguments: TransportUnderTest.allCases)
  func brAndZstdBodiesAreDecoded(transport: TransportUnderTest) async throws {
    let (brHead, br) = try await Self.fetch("br", "&length=1", over: transport)
    #expect(br == Data(String(repeating: "endpoint br body ", count: 200).utf8))
    #expect(brHead.headerFields["Content-Encoding"] == "br")
    let (_, zstd) = try await Self.fetch("zstd", over: transport)
    #expect(zstd == Data(String(repeating: "endpoint zstd body ", count: 200).utf8))
    let (_, frames) = try await Self.fetch("zstd-frames", over: transport)
    #expect(String(decoding: frames, as: UTF8.self) == "first frame, second frame")
    let (_, stacked) = try await Self.fetch("br-gzip", over: transport)
    #expect(stacked == br)
  }

  @Test(arguments: ["br", "zstd"])
  func aBrOrZstdBodyCutShortFailsOverCurl(name: String) async throws {
    let failure = try await Self.failure(name, "&cut=5", over: .curl)
    #expect(failure.kind == .malformedResponse)
    #expect(failure.description.contains("\(name) body ended before the end"), "\(failure)")
  }

  @Test(arguments: [("br", 5), ("zstd", 5), ("gzip-gzip", 40)])
  func urlSessionReturnsACodedBodyCutShortAsASuccess(name: String, cut: Int) async throws {
    // Foundation does not check the end of a compressed stream (listed in "The transport on
    // Linux"): a body cut short comes back shorter, as a success. Should Foundation start to
    // report it, this fails and the article changes.
    let (_, data) = try await Self.fetch(name, "&cut=\(cut)", over: .urlSession)
    let whole = try await Self.fetch(name, over: .curl).1
    #expect(data.count < whole.count)
    #expect(whole.starts(with: data))
  }

  // MARK: - Codings the client did not offer

  @Test func aCodingTheClientDidNotOfferIsPassedThroughAsSentOverCurl() async throws {
    let (response, data) = try await Self.fetch("unknown", over: .curl)
    #expect(response.headerFields["Content-Encoding"] == "endpoint-test")
    #expect(data == Self.text)
    // One coding not offered in the stack: nothing is decoded, the field says what is left.
    let (stacked, raw) = try await Self.fetch("unknown-gzip", over: .curl)
    #expect(stacked.headerFields["Content-Encoding"] == "endpoint-test, gzip")
    #expect(Array(raw.prefix(2)) == [0x1F, 0x8B])
  }

  @Test(arguments: ["unknown", "unknown-gzip"])
  func urlSessionFailsACodingFoundationDoesNotKnow(name: String) async throws {
    // Foundation's libcurl decodes every response and fails a coding it does not know (listed
    // in "The transport on Linux").
    let failure = try await Self.failure(name, "&length=1", over: .urlSession)
    #expect(failure.kind == .malformedResponse, "\(failure)")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func withItsOwnAcceptEncodingTheCallerGetsWhatFoundationOrTheServerMade(
    transport: TransportUnderTest
  ) async throws {
    // The curl client decodes only what it offered itself: the caller who offers codings gets
    // the bytes as sent. Foundation decodes whatever its libcurl knows, offered or not (listed
    // in "The transport on Linux").
    let client = try transport.makeClient()
    var request = HTTPRequest(
      method: .get, url: try TestServers.fault.adding("/coded?body=gzip-gzip&length=1"))
    try request.headerFields.append("gzip", for: "Accept-Encoding")
    let (response, body) = try await client.send(request)
    let data = try await body.collect()
    #expect(response.headerFields["Content-Encoding"] == "gzip, gzip")
    if transport == .curl {
      #expect(Array(data.prefix(2)) == [0x1F, 0x8B])
    } else {
      #expect(data == Self.text)
    }
  }

  @Test func theCurlClientOffersEveryCodingItDecodes() {
    // br and zstd are offered when the libraries libcurl links are there (they are here).
    #expect(ContentDecoder.acceptEncoding == "gzip, deflate, br, zstd")
    #expect(ContentDecoder.offered.count == 4)
  }
}

/// The size limit counts decoded bytes, and a decoded body holds no more memory than a plain
/// one: measured among the other memory tests, one at a time.
extension BoundedMemoryTests {
  /// Over curl only in this process: URLSession fails the same bomb at the limit too, but
  /// Foundation goes on decoding the rest of the gigabyte after the cancellation, and meanwhile
  /// every URLSession request of the process waits, so both clients are also tested in a
  /// process of their own (`DecodedSizeLimitProbeTests`). Listed in "The transport on Linux".
  @Test(.tags(.loopbackServers), .requiresLoopbackServers, arguments: [TransportUnderTest.curl])
  func aNestedGzipBombFailsAtTheSizeLimitWithBoundedMemory(
    transport: TransportUnderTest
  ) async throws {
    // 1,827 bytes on the wire, 1 GiB decoded (gzip of gzip of zeros).
    let limit = 8 << 20
    let peakBefore = try Self.resetPeak()
    let start = ContinuousClock.now
    let failure = try await ContentCodingTests.failure(
      "bomb", "&length=1", over: transport, maximumResponseSize: limit)
    #expect(failure.kind == .responseTooLarge, "\(failure)")
    #expect(ContinuousClock.now - start < .seconds(20))
    // The peak is the process's, other suites' allocations included; decoded whole, the
    // gigabyte would pass the bound.
    let grown = Self.residentBytes(field: "VmHWM:") - peakBefore
    #expect(grown < 512 << 20, "the peak grew by \(grown >> 20) MiB")
  }

  @Test(.tags(.loopbackServers), .requiresLoopbackServers)
  func aNestedGzipBombReadWithNoLimitHoldsNoMoreThanAPlainBodyOverCurl() async throws {
    // No size limit: the reader's pace bounds what is decoded ahead of it (the transfer pauses
    // while the reader is behind, as for a plain body). The first 256 MiB of the gigabyte are
    // read, every byte a zero; the fuzz target checks the pauses lose and repeat nothing.
    let client = try TransportUnderTest.curl.makeClient()
    let url = try TestServers.fault.adding("/coded?body=bomb&length=1")
    let peakBefore = try Self.resetPeak()
    var received = 0
    var last = Data()
    do {
      // The body is dropped at the end of this scope, which stops the transfer.
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      for try await chunk in body {
        received += chunk.count
        last = chunk
        if received >= 256 << 20 { break }
      }
    }
    #expect(received >= 256 << 20)
    #expect(!last.isEmpty && last.allSatisfy { $0 == 0 })
    // Measured alone over the whole gigabyte: 4 MiB (a plain 1 GiB body: 3 MiB). The peak is
    // the process's, other suites' allocations included; decoding each received chunk whole
    // would hold the gigabyte.
    let grown = Self.residentBytes(field: "VmHWM:") - peakBefore
    #expect(grown < 512 << 20, "the peak grew by \(grown >> 20) MiB")
    #expect(try await TransportUnderTest.curl.waitUntilIdle(client))
  }
}
