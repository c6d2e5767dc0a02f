import EndpointCore
import EndpointKernel
import EndpointPrimitives
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The transport vocabulary every client shares: errors print without credentials, metrics
/// print only what was measured, and the redirect rules follow RFC 9110.
@Suite struct TransportVocabularyTests {
  private func hop(
    _ method: HTTPMethod,
    _ url: String,
    body: String = "payload",
    replayable: Bool = true
  ) throws -> TestHop {
    let fields = try HTTPFields([
      ("Authorization", "Bearer secret"), ("Content-Type", "text/plain"), ("Accept", "*/*"),
    ])
    return TestHop(
      method: method,
      url: try #require(URL(string: url)),
      headerFields: fields,
      body: TestHopBody(bytes: Data(body.utf8)),
      bodyIsReplayable: replayable
    )
  }

  @Test func timeoutErrorsHideCredentialsInTheURL() throws {
    let url = try #require(URL(string: "https://me:pw@example.com/a?api_key=abc&page=2"))
    let idle = TransportFailure.idleTimeout(
      method: .get, url: url, limit: .milliseconds(300), silence: .seconds(1))
    let deadline = TransportFailure.deadlineExceeded(
      method: .get, url: url, limit: .seconds(2), elapsed: .seconds(2))
    for text in [idle.description, deadline.description] {
      #expect(!text.contains("pw"))
      #expect(!text.contains("abc"))
      #expect(text.contains("page=2"))
    }
    #expect(idle.description.contains("idle timeout 0.3 s"))
    #expect(idle.isTransient && deadline.isTransient)
  }

  @Test func bothTimeoutErrorsSayTheyTimedOut() throws {
    let url = try #require(URL(string: "https://example.com/slow"))
    let idle = TransportFailure.idleTimeout(
      method: .get, url: url, limit: .milliseconds(300), silence: .seconds(1))
    let deadline = TransportFailure.deadlineExceeded(
      method: .post, url: url, limit: .seconds(2), elapsed: .seconds(2))
    #expect(
      idle.description
        == "GET https://example.com/slow: timed out, no bytes for 1 s (idle timeout 0.3 s)")
    #expect(
      deadline.description
        == "POST https://example.com/slow: timed out, not finished after 2 s (deadline 2 s)")
  }

  @Test func metricsPrintOnlyThePhasesThatWereMeasured() throws {
    let start = ContinuousClock.now
    var metrics = TransferMetrics(
      method: .get,
      url: try #require(URL(string: "http://example.com/items")),
      status: 200,
      startDate: Date(),
      start: start,
      responseStart: start + .milliseconds(5),
      end: start + .milliseconds(12)
    )
    #expect(
      metrics.description == "GET http://example.com/items 200 in 12.0 ms (head 5.0 ms), "
        + "0 B sent, 0 B received")
    metrics.nameLookup = .microseconds(100)
    metrics.firstByte = .milliseconds(4)
    #expect(metrics.description.contains("(head 5.0 ms, dns 0.1 ms, first byte 4.0 ms)"))
    #expect(metrics.timeToResponse == .milliseconds(5))
  }

  @Test func seeOtherTurnsPostIntoGetWithoutBodyOrContentFields() throws {
    let next = try RedirectRule.next(
      after: try hop(.post, "http://example.com/a"),
      status: 303,
      location: try #require(URL(string: "http://example.com/b"))
    )
    #expect(next.method == .get)
    #expect(!next.hasBody)
    #expect(next.headerFields["Content-Type"] == nil)
    #expect(next.headerFields["Authorization"] == "Bearer secret")
  }

  @Test func permanentRedirectKeepsMethodAndBodyButNotCredentialsAcrossOrigins() throws {
    let next = try RedirectRule.next(
      after: try hop(.put, "http://example.com/a"),
      status: 308,
      location: try #require(URL(string: "http://other.example.com/b"))
    )
    #expect(next.method == .put)
    #expect(next.body.bytes == Data("payload".utf8))
    #expect(next.headerFields["Authorization"] == nil)
    #expect(next.headerFields["Accept"] == "*/*")
  }

  @Test func aStreamedBodyCannotFollowA307() throws {
    let location = try #require(URL(string: "http://example.com/b"))
    let error = try #require(throws: TransportFailure.self) {
      try RedirectRule.next(
        after: try hop(.post, "http://example.com/a", replayable: false),
        status: 307,
        location: location
      )
    }
    #expect(error.kind == .redirectBodyNotReplayable)
    #expect(error.description.contains("307 redirect to"))
    #expect(error.redirects.last == location)
  }

  @Test func onlyTheFiveRedirectStatusesAreFollowed() {
    #expect([301, 302, 303, 307, 308].allSatisfy(RedirectRule.isFollowed))
    #expect(![300, 304, 305, 306, 200].contains(where: RedirectRule.isFollowed))
  }

  @Test func redirectPolicyClampsNegativeLimits() {
    #expect(RedirectPolicy.follow(upTo: -3).limit == 0)
    #expect(RedirectPolicy.doNotFollow.limit == nil)
    #expect(RedirectPolicy.followDefault.description == "follow up to 20")
  }

  @Test func originComparisonUsesSchemeHostAndDefaultPorts() throws {
    let pairs: [(String, String, Bool)] = [
      ("http://a.test/x", "http://a.test:80/y", true),
      ("https://a.test/x", "https://A.TEST:443/y", true),
      ("http://a.test/x", "https://a.test/x", false),
      ("http://a.test:8080/x", "http://a.test/x", false),
      ("http://a.test/x", "http://b.test/x", false),
    ]
    for (first, second, same) in pairs {
      let outcome = HTTPURL.sameOrigin(
        try #require(URL(string: first)),
        try #require(URL(string: second))
      )
      #expect(outcome == same, "\(first) → \(second)")
    }
  }
}
