import EndpointCore
import EndpointKernel
import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// The same request, sent by both clients to one server that keeps the exact bytes it receives,
/// compared byte for byte. Only what "Choosing a transport" lists as different is set aside:
/// the order of the fields ("Order of request fields": the platform's, as given) and the two
/// fields URLSession adds on its own (`Accept-Language`, `Connection: keep-alive`).
struct WireParity {
  /// What the server read from each client for one request.
  var urlSession: CaptureServer.Request
  var curl: CaptureServer.Request

  /// Sends `make(server.url)` once over each client (a new client each, with its defaults) and
  /// returns the one request each put on the wire.
  static func capture(
    on server: CaptureServer,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ make: (URL) throws -> HTTPRequest
  ) async throws -> WireParity {
    let exchanges = try await captureExchanges(
      on: server, expecting: 1, sourceLocation: sourceLocation, make)
    return exchanges[0]
  }

  /// Sends `make(server.url)` once over each client and returns, per client, every request it
  /// put on the wire for it (the first and each redirect followed), checking there were
  /// `count`.
  static func captureExchanges(
    on server: CaptureServer,
    expecting count: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ make: (URL) throws -> HTTPRequest
  ) async throws -> [WireParity] {
    var received: [[CaptureServer.Request]] = []
    for transport in TransportUnderTest.allCases {
      let before = server.requests.count
      let client = try transport.makeClient()
      let (_, body) = try await client.send(try make(server.url))
      _ = try await body.collect(upTo: 1024)
      let sent = Array(server.requests[before...])
      try #require(
        sent.count == count, "\(transport) put \(sent.count) requests on the wire",
        sourceLocation: sourceLocation)
      received.append(sent)
    }
    return zip(received[0], received[1]).map { WireParity(urlSession: $0, curl: $1) }
  }

  /// The field lines of `request` without the ones only URLSession sends.
  static func comparableLines(_ request: CaptureServer.Request) -> [String] {
    request.fieldLines.filter { !WireHeadTests.urlSessionOnlyLines.contains($0) }.sorted()
  }

  /// Checks both clients sent the same request line, the same field lines (byte for byte, in
  /// any order) and the same framed body.
  func expectSame(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(urlSession.requestLine == curl.requestLine, sourceLocation: sourceLocation)
    #expect(
      Set(urlSession.fieldLines).isSuperset(of: WireHeadTests.urlSessionOnlyLines),
      sourceLocation: sourceLocation)
    #expect(
      Self.comparableLines(urlSession) == Self.comparableLines(curl),
      sourceLocation: sourceLocation)
    #expect(urlSession.framedBody == curl.framedBody, sourceLocation: sourceLocation)
  }

  /// Both requests.
  var both: [CaptureServer.Request] { [urlSession, curl] }
}

/// Field names and values reach the wire as the caller spelled them, the same on both clients.
@Suite struct WireFieldParityTests {
  /// Names in the spellings callers use: lower case (as HTTP/2 and many APIs write them),
  /// upper-case acronyms, and names Foundation's capitalisation would respell.
  static let names = [
    "x-lower", "TE", "X-API-Key", "x-b3-traceid", "content-type", "accept", "user-agent",
    "accept-encoding", "DNT", "X-1a2b", "x_under.score", "X-Odd!#$%&'*+^`|~",
  ]

  @Test func fieldNamesKeepTheCallersSpellingOnBothClients() async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let parity = try await WireParity.capture(on: server) { url in
      var request = HTTPRequest(method: .post, url: url, body: HTTPBody("hello"))
      for name in Self.names { try request.headerFields.append("v", for: name) }
      return request
    }
    parity.expectSame()
    for sent in parity.both {
      for name in Self.names {
        #expect(sent.fieldLines.contains("\(name): v"), "\(name) was respelled")
        // The caller's field replaces the client's default, whatever its spelling.
        #expect(sent.values(of: name) == ["v"], "\(name) was sent twice")
      }
    }
  }

  @Test func repeatedNamesInDifferentCaseAreOneFieldSpelledAsFirstGiven() async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let parity = try await WireParity.capture(on: server) { url in
      var request = HTTPRequest(method: .get, url: url)
      for (name, value) in [
        ("x-many", "a"), ("X-MANY", "b"), ("X-Many", "c"), ("cookie", "s=1"), ("COOKIE", "t=2"),
      ] {
        try request.headerFields.append(value, for: name)
      }
      return request
    }
    parity.expectSame()
    for sent in parity.both {
      #expect(sent.fieldLines.contains("x-many: a, b, c"))
      // `Cookie` is the one name spelled by the client ("Choosing a transport").
      #expect(sent.fieldLines.contains("Cookie: s=1; t=2"))
      #expect(sent.values(of: "x-many").count == 1)
    }
  }

  @Test func aValueOfOnlyWhitespaceIsSentAsAnEmptyField() async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let fields = [
      ("X-Empty", ""), ("X-Spaces", "   "), ("X-Tab", "\t"), ("X-Lead", " v"), ("X-Trail", "v\t"),
      ("X-Utf8", "caf\u{e9} \u{1F600}"),
    ]
    let parity = try await WireParity.capture(on: server) { url in
      var request = HTTPRequest(method: .get, url: url)
      for (name, value) in fields { try request.headerFields.append(value, for: name) }
      return request
    }
    parity.expectSame()
    for sent in parity.both {
      for line in [
        "X-Empty:", "X-Spaces:", "X-Tab:", "X-Lead: v", "X-Trail: v",
        "X-Utf8: caf\u{e9} \u{1F600}",
      ] {
        #expect(sent.fieldLines.contains(line), "\(line) is missing")
      }
    }
  }

  @Test func framingFieldsOfTheCallerNeverReachTheWire() async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    for (method, body) in [(HTTPMethod.get, nil), (.post, HTTPBody("hello")), (.put, nil)] {
      let parity = try await WireParity.capture(on: server) { url in
        var request = HTTPRequest(method: method, url: url, body: body)
        for (name, value) in [
          ("content-length", "99"), ("Transfer-Encoding", "chunked"), ("HOST", "evil.example"),
          ("connection", "close"), ("Content-Length", "0"),
        ] {
          try request.headerFields.append(value, for: name)
        }
        return request
      }
      parity.expectSame()
      for sent in parity.both {
        #expect(sent.values(of: "Host") == ["127.0.0.1:\(server.port)"])
        #expect(sent.values(of: "Transfer-Encoding").isEmpty)
        #expect(!sent.values(of: "Connection").contains("close"))
        let length: [String] =
          body != nil ? ["5"] : WireFields.sendsZeroLength(for: method) ? ["0"] : []
        #expect(sent.values(of: "Content-Length") == length, "\(method)")
      }
    }
  }
}

/// A body with no bytes, of any kind, is sent as no body by both clients, whatever the method.
// Its cases one at a time: each makes clients of both transports, and a hundred at once
// would load the machine for every other test.
@Suite(.serialized) struct WireEmptyBodyParityTests {
  enum EmptyBody: String, CaseIterable, Sendable {
    case data, file, streamOfLengthZero
  }

  @Test(arguments: WireHeadTests.methods, EmptyBody.allCases)
  func anEmptyBodyIsSentAsNoBody(method: HTTPMethod, kind: EmptyBody) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory.appending(path: "empty-\(UUID())")
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let parity = try await WireParity.capture(on: server) { url in
      let body =
        switch kind {
        case .data: HTTPBody(Data())
        case .file: try HTTPBody(contentsOf: file)
        case .streamOfLengthZero: HTTPBody(AsyncStream<Data> { $0.finish() }, length: 0)
        }
      return HTTPRequest(method: method, url: url, body: body)
    }
    parity.expectSame()
    for sent in parity.both {
      #expect(sent.requestLine == "\(method) / HTTP/1.1")
      #expect(
        sent.values(of: "Content-Length")
          == (WireFields.sendsZeroLength(for: method) ? ["0"] : []))
      #expect(sent.values(of: "Transfer-Encoding").isEmpty)
      #expect(sent.framedBody.isEmpty)
    }
  }
}

/// The request a redirect leads to, the same on both clients for every redirect status, method
/// and kind of body that can be sent again.
// Its cases one at a time: each makes clients of both transports, and a hundred at once
// would load the machine for every other test.
@Suite(.serialized) struct WireRedirectParityTests {
  enum Body: String, CaseIterable, Sendable {
    case none, emptyData, data, file, emptyFile
  }

  /// Every followed status with every method that may carry a body.
  static let redirects: [(status: Int, method: HTTPMethod)] = [301, 302, 303, 307, 308].flatMap {
    status in [HTTPMethod.post, .put, .delete, "PURGE"].map { (status, $0) }
  }

  @Test(arguments: redirects, Body.allCases)
  func theRedirectedRequestIsTheSameOnBothClients(
    redirect: (status: Int, method: HTTPMethod),
    kind: Body
  ) async throws {
    let (status, method) = redirect
    let server = try CaptureServer { request in
      request.requestLine.contains(" /from ")
        ? .init("HTTP/1.1 \(status) Moved\r\nLocation: /to?x=1\r\nContent-Length: 0\r\n\r\n")
        : .ok
    }
    defer { server.stop() }
    let directory = FileManager.default.temporaryDirectory
    let file = directory.appending(path: "redirect-\(UUID())")
    try Data("hello".utf8).write(to: file)
    let emptyFile = directory.appending(path: "redirect-empty-\(UUID())")
    try Data().write(to: emptyFile)
    defer {
      try? FileManager.default.removeItem(at: file)
      try? FileManager.default.removeItem(at: emptyFile)
    }
    let hops = try await WireParity.captureExchanges(on: server, expecting: 2) { url in
      let body: HTTPBody? =
        switch kind {
        case .none: nil
        case .emptyData: HTTPBody(Data())
        case .data: HTTPBody("hello")
        case .file: try HTTPBody(contentsOf: file)
        case .emptyFile: try HTTPBody(contentsOf: emptyFile)
        }
      var request = HTTPRequest(method: method, url: url.appending(path: "from"), body: body)
      try request.headerFields.append("text/plain", for: "Content-Type")
      try request.headerFields.append("kept", for: "X-Trace")
      try request.headerFields.append("Bearer same-origin", for: "Authorization")
      return request
    }
    for hop in hops { hop.expectSame() }
    // RFC 9110, section 15.4: 301 and 302 turn only POST into GET, 303 everything but HEAD.
    let becomesGet = status == 303 || ((status == 301 || status == 302) && method == .post)
    let hasBytes = kind == .data || kind == .file
    for sent in hops[1].both {
      #expect(sent.requestLine == "\(becomesGet ? .get : method) /to?x=1 HTTP/1.1")
      #expect(sent.values(of: "X-Trace") == ["kept"])
      #expect(sent.values(of: "Authorization") == ["Bearer same-origin"])
      if becomesGet {
        #expect(sent.values(of: "Content-Type").isEmpty)
        #expect(sent.values(of: "Content-Length").isEmpty)
        #expect(sent.framedBody.isEmpty)
      } else {
        #expect(sent.values(of: "Content-Type") == ["text/plain"])
        #expect(sent.values(of: "Content-Length") == [hasBytes ? "5" : "0"])
        #expect(sent.body == (hasBytes ? Array("hello".utf8) : []))
      }
    }
  }
}

extension WireRedirectParityTests {
  /// A stream is read once: a `307` or `308` that must resend it fails with
  /// `.redirectBodyNotReplayable` on both clients, declared length or not, and the target
  /// never gets a request.
  @Test(arguments: [307, 308], [5, nil] as [Int64?])
  func aStreamCannotFollowARedirectThatKeepsTheBody(status: Int, length: Int64?) async throws {
    let server = try CaptureServer { request in
      request.requestLine.contains(" /from ")
        ? .init("HTTP/1.1 \(status) Moved\r\nLocation: /to\r\nContent-Length: 0\r\n\r\n")
        : .ok
    }
    defer { server.stop() }
    for transport in TransportUnderTest.allCases {
      let body = HTTPBody(
        AsyncStream<Data> { continuation in
          continuation.yield(Data("hello".utf8))
          continuation.finish()
        },
        length: length)
      let request = HTTPRequest(
        method: .post, url: server.url.appending(path: "from"), body: body)
      let error = await #expect(throws: TransportFailure.self, "\(transport)") {
        _ = try await transport.makeClient().send(request)
      }
      #expect(error?.kind == .redirectBodyNotReplayable)
      #expect(error?.description.contains("\(status) redirect to") == true)
    }
    #expect(server.requests.map(\.requestLine).allSatisfy { $0.hasPrefix("POST /from ") })
    #expect(server.requests.count == 2)
  }
}

/// Credentials never follow a redirect to another origin, whichever way the caller gave them:
/// any spelling of a credential field, or user information in the URL (which both clients
/// send as `Authorization: Basic`).
// Its cases one at a time: each makes clients of both transports, and a hundred at once
// would load the machine for every other test.
@Suite(.serialized) struct WireCredentialRedirectTests {
  enum Credential: String, CaseIterable, Sendable {
    case authorization, cookie, proxyAuthorization, apiKey, bareApiKey, securityToken, sessionID
    case csrfToken, userInfo

    /// The field as a caller might spell it; `nil` for user information.
    var field: (name: String, value: String)? {
      switch self {
      case .authorization: ("authorization", "Bearer canary")
      case .cookie: ("COOKIE", "s=canary")
      case .proxyAuthorization: ("Proxy-Authorization", "Basic canary")
      case .apiKey: ("x-api-key", "canary")
      case .bareApiKey: ("API-KEY", "canary")
      case .securityToken: ("X-Amz-Security-Token", "canary")
      case .sessionID: ("X-Session-Id", "canary")
      case .csrfToken: ("x-csrf-token", "canary")
      case .userInfo: nil
      }
    }
  }

  /// Where the redirect leads: another port, or another host name for the same server.
  enum Elsewhere: String, CaseIterable, Sendable {
    case otherPort, otherHost
  }

  @Test(arguments: Credential.allCases, Elsewhere.allCases)
  func aCredentialNeverReachesAnotherOrigin(credential: Credential, elsewhere: Elsewhere)
    async throws
  {
    let other = try CaptureServer()
    defer { other.stop() }
    let otherPort = other.port
    let origin = try CaptureServer { request in
      guard request.requestLine.contains(" /away ") else { return .ok }
      // The origin's own port, as the request named it.
      let port = request.values(of: "Host").first?.split(separator: ":").last ?? ""
      let landing =
        switch elsewhere {
        case .otherPort: "http://127.0.0.1:\(otherPort)/landing"
        // The same server under another name: another origin all the same.
        case .otherHost: "http://localhost:\(port)/landing"
        }
      return .init(
        "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(landing)\r\nContent-Length: 0\r\n\r\n")
    }
    defer { origin.stop() }
    let landed = elsewhere == .otherPort ? other : origin
    var heads: [CaptureServer.Request] = []
    for transport in TransportUnderTest.allCases {
      let before = landed.requests.filter { $0.requestLine.contains(" /landing ") }.count
      var components = URLComponents(
        url: origin.url.appending(path: "away"), resolvingAgainstBaseURL: false)
      if credential == .userInfo {
        components?.user = "user"
        components?.password = "canary"
      }
      var request = HTTPRequest(method: .post, url: try #require(components?.url))
      request.body = HTTPBody("hello")
      if let field = credential.field {
        try request.headerFields.append(field.value, for: field.name)
      }
      try request.headerFields.append("kept", for: "X-Trace")
      let (response, body) = try await transport.makeClient().send(request)
      _ = try await body.collect(upTo: 64)
      #expect(response.status == 200)
      let arrived = landed.requests.filter { $0.requestLine.contains(" /landing ") }
      try #require(arrived.count == before + 1, "\(transport) did not land")
      heads.append(arrived[before])
    }
    WireParity(urlSession: heads[0], curl: heads[1]).expectSame()
    let basic = Data("user:canary".utf8).base64EncodedString()
    for sent in heads {
      #expect(sent.requestLine == "POST /landing HTTP/1.1")
      #expect(sent.values(of: "X-Trace") == ["kept"])
      #expect(sent.body == Array("hello".utf8))
      #expect(sent.values(of: "Authorization").isEmpty)
      for secret in ["canary", basic] {
        #expect(!sent.head.contains(Array(secret.utf8)), "\(secret) reached another origin")
      }
    }
    // The first request carried it: the test sends what it says.
    let first = try #require(origin.requests.first)
    #expect(first.head.contains(Array((credential == .userInfo ? basic : "canary").utf8)))
  }
}

/// A caller's `Cookie` field and the cookies a client keeps for the URL go out as one field
/// (RFC 6265, section 5.4: never more than one), the same on both clients.
@Suite struct WireCookieParityTests {
  @Test func aCallersCookieAndARedirectsCookieGoInOneField() async throws {
    let server = try CaptureServer { request in
      request.requestLine.contains(" /from ")
        ? .init(
          "HTTP/1.1 307 Temporary Redirect\r\nSet-Cookie: srv=1; Path=/\r\nLocation: /to\r\n"
            + "Content-Length: 0\r\n\r\n")
        : .ok
    }
    defer { server.stop() }
    let hops = try await WireParity.captureExchanges(on: server, expecting: 2) { url in
      var request = HTTPRequest(method: .get, url: url.appending(path: "from"))
      try request.headerFields.append("mine=2", for: "cookie")
      try request.headerFields.append("more=3", for: "Cookie")
      return request
    }
    for hop in hops { hop.expectSame() }
    for sent in hops[0].both {
      #expect(sent.values(of: "Cookie") == ["mine=2; more=3"])
    }
    for sent in hops[1].both {
      // The cookie the redirect set, then the caller's own, in one field.
      #expect(sent.values(of: "Cookie") == ["srv=1; mine=2; more=3"], "\(sent.fieldLines)")
    }
  }
}

/// Control characters and spaces a caller puts into a URL never reach the request line raw:
/// whichever way the URL was made, both clients send one request whose target holds them
/// percent-encoded, or nothing at all.
@Suite struct WireURLInjectionTests {
  static let hostile = ["a\r\nX-Injected: 1", "a\nb", "a\0b", "a b", "a\tb", "a\r\n\r\nGET /x"]

  @Test(arguments: hostile)
  func controlCharactersInAURLAreEncodedOrRefused(text: String) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    var urls: [URL] = []
    urls.append(server.url.appending(path: text))
    urls.append(server.url.appending(queryItems: [URLQueryItem(name: "q", value: text)]))
    urls.append(server.url.appending(queryItems: [URLQueryItem(name: text, value: "v")]))
    let literal: String = "http://127.0.0.1:" + String(server.port) + "/" + text + "?" + text
    if let url = URL(string: literal) { urls.append(url) }
    for url in urls {
      let before = server.requests.count
      for transport in TransportUnderTest.allCases {
        do {
          let (_, body) = try await transport.makeClient().send(
            HTTPRequest(method: .get, url: url))
          _ = try await body.collect(upTo: 64)
        } catch {
          // Refused before a byte is sent: acceptable, as long as nothing reached the wire.
          #expect((error as? InvalidRequest)?.kind == .url, "\(transport): \(error)")
        }
      }
      let sent = Array(server.requests[before...])
      #expect(sent.count <= 2)
      if sent.count == 2 {
        #expect(sent[0].requestLine == sent[1].requestLine)
      }
      for request in sent {
        let target = request.requestLine.split(separator: " ", omittingEmptySubsequences: false)
        #expect(target.count == 3, "\(request.requestLine)")
        #expect(!request.head.contains(0), "NUL on the wire")
        #expect(request.values(of: "X-Injected").isEmpty)
      }
    }
    // The text may arrive percent-encoded in a target, never as a line of its own.
    let injected = server.bytesByConnection.contains { $0.contains(Array("\nX-Injected".utf8)) }
    #expect(!injected)
    #expect(!server.requests.contains { $0.requestLine.hasPrefix("GET /x ") })
  }
}

extension WireCredentialRedirectTests {
  /// Within the origin, a redirect keeps the credentials, URL user information included: both
  /// clients send the same `Authorization` to the redirect's target.
  @Test func userInformationStaysWithinTheOrigin() async throws {
    let server = try CaptureServer { request in
      request.requestLine.contains(" /away ")
        ? .init("HTTP/1.1 302 Found\r\nLocation: /final\r\nContent-Length: 0\r\n\r\n") : .ok
    }
    defer { server.stop() }
    let hops = try await WireParity.captureExchanges(on: server, expecting: 2) { url in
      var components = URLComponents(
        url: url.appending(path: "away"), resolvingAgainstBaseURL: false)
      components?.user = "user"
      components?.password = "pass"
      return HTTPRequest(method: .get, url: try #require(components?.url))
    }
    for hop in hops { hop.expectSame() }
    let basic = "Basic " + Data("user:pass".utf8).base64EncodedString()
    for sent in hops[1].both {
      #expect(sent.requestLine == "GET /final HTTP/1.1")
      #expect(sent.values(of: "Authorization") == [basic])
    }
  }
}
