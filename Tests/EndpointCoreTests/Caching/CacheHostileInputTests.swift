import EndpointTestSupport
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Fields and stored files a server or a damaged disk may produce: never a crash, never a
/// wrong body.
@Suite struct CacheHostileInputTests {
  @Test func hugeAgeAndLifetimesAreCappedInsteadOfOverflowing() async throws {
    for headers in [
      [("Cache-Control", "max-age=60"), ("Age", "99999999999999999999999999999999")],
      [("Cache-Control", "max-age=99999999999999999999999999"), ("Age", "1")],
      [("Expires", "Fri, 31 Dec 9999 23:59:59 GMT"), ("Date", "Thu, 01 Jan 1970 00:00:00 GMT")],
      [("Last-Modified", "Mon, 01 Jan 0001 00:00:00 GMT")],
    ] {
      let cache = CacheHarness(headers: headers)
      _ = try await cache.get()
      let (response, body) = try await cache.send(headers: [("Cache-Control", "max-stale")])
      #expect(["v0", "v1"].contains(body), "\(headers)")
      #expect(response.cacheStatus != nil, "\(headers)")
    }
  }

  @Test func malformedCacheControlValuesNeverCrash() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("max-age=,\"\\ ;no-cache\tstale=0123456789")
    for _ in 0..<2_000 {
      let length = Int.random(in: 0...40, using: &generator)
      let value = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
      var fields = HTTPFields()
      fields[.cacheControl] = value
      let control = CacheControl(fields)
      if let seconds = control.seconds("max-age") { #expect(seconds >= 0) }
    }
  }

  @Test func malformedCacheStatusMembersReadAsMissesOrNothing() throws {
    for value in [
      "Endpoint; =", "Endpoint;;;", "Endpoint; ttl=abc; fwd-status=", "Endpoint;=x", "",
    ] {
      let response = HTTPResponse(
        status: 200, headerFields: try HTTPFields([("Cache-Status", value)]))
      if value.hasPrefix("Endpoint") {
        #expect(response.cacheStatus?.outcome == .miss, "\(value)")
        #expect(response.cacheStatus?.timeToLive == nil, "\(value)")
      } else {
        #expect(response.cacheStatus == nil)
      }
    }
  }

  @Test func aStoreFileWithADamagedHeadAndARecomputedChecksumIsAMissOrTheSameBodies() throws {
    let entry = CachedResponse(
      url: try #require(URL(string: "https://api.example.com/x")), status: 200,
      headerFields: try HTTPFields([("ETag", "\"a\"")]), body: Data("body".utf8),
      requestTime: Date(timeIntervalSince1970: 0), responseTime: Date(timeIntervalSince1970: 1))
    let valid = DiskCacheFile.encode([entry], key: "k")
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      var bytes = [UInt8](valid.dropLast(8))
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        bytes[index] = UInt8.random(in: 0...255, using: &generator)
      }
      var data = Data(bytes)
      let checksum = DiskCacheFile.fnv1a(data)
      for shift in stride(from: 56, through: 0, by: -8) {
        data.append(UInt8(truncatingIfNeeded: checksum >> shift))
      }
      // The lengths in the head must account for every byte: a file that decodes holds
      // exactly the bodies it declares.
      if let decoded = DiskCacheFile.decode(data, key: "k") {
        #expect(decoded.map(\.body.count).reduce(0, +) == entry.body.count)
      }
    }
  }
}
