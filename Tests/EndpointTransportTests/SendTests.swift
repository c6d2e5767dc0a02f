import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct SendTests {
  @Test(arguments: TransportUnderTest.allCases)
  func getReturnsStatusHeadersAndDecodedQuery(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/get?name=a%20b&x=1")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(response.mediaType == "application/json")
    #expect(json["args"] as? [String: String] == ["name": "a b", "x": "1"])
  }

  @Test(arguments: TransportUnderTest.allCases, [HTTPMethod.post, .put, .patch, .delete])
  func methodsWithBodyReachTheServer(transport: TransportUnderTest, method: HTTPMethod) async throws
  {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/anything")
    var request = HTTPRequest(method: method, url: url, body: HTTPBody("payload-\(method)"))
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == method.rawValue)
    #expect(json["data"] as? String == "payload-\(method)")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func headMethodHasNoBody(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/get")
    let (response, body) = try await client.send(HTTPRequest(method: .head, url: url))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 1024).isEmpty)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func endpointQueryAndHeadersArrive(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let endpoint = Endpoint(
      .get,
      url: try TestServers.httpbin.adding("/anything"),
      query: [URLQueryItem(name: "q", value: "a+b&c")],
      headers: ["X-Custom": "value 1"],
      parser: .data
    )
    let json = try jsonObject(try await client.call(endpoint))
    #expect(json["args"] as? [String: String] == ["q": "a+b&c"])
    let headers = try #require(json["headers"] as? [String: String])
    #expect(headers["X-Custom"] == "value 1")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func formBodyIsDecodedByTheServer(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let endpoint = Endpoint(
      .post,
      url: try TestServers.httpbin.adding("/post"),
      payload: .formURLEncoded([("name", "Ada Lovelace"), ("tags", "a&b=c")]),
      parser: .data
    )
    let json = try jsonObject(try await client.call(endpoint))
    #expect(json["form"] as? [String: String] == ["name": "Ada Lovelace", "tags": "a&b=c"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func multipartBodyIsDecodedByTheServer(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let parts = [
      MultipartPart.text(name: "field", value: "text value"),
      MultipartPart(
        name: "upload",
        filename: "hello.txt",
        contentType: "text/plain",
        data: Data("file contents".utf8)
      ),
    ]
    let endpoint = Endpoint(
      .post,
      url: try TestServers.httpbin.adding("/post"),
      payload: .multipart(parts),
      parser: .data
    )
    let json = try jsonObject(try await client.call(endpoint))
    #expect(json["form"] as? [String: String] == ["field": "text value"])
    #expect(json["files"] as? [String: String] == ["upload": "file contents"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func jsonBodyRoundTrips(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let payload = Data(#"{"id":7,"name":"Zoë"}"#.utf8)
    let endpoint = Endpoint(
      .post,
      url: try TestServers.httpbin.adding("/post"),
      payload: .data(payload, contentType: "application/json"),
      parser: .data
    )
    let json = try jsonObject(try await client.call(endpoint))
    let echoed = try #require(json["json"] as? [String: Any])
    #expect(echoed["id"] as? Int == 7)
    #expect(echoed["name"] as? String == "Zoë")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func unacceptedStatusReachesTheParserAsUnexpectedResponse(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    let endpoint = Endpoint(
      .get,
      url: try TestServers.httpbin.adding("/status/418"),
      parser: .string
    )
    let error = try await #require(throws: UnexpectedResponse.self) {
      try await client.call(endpoint)
    }
    #expect(error.status == 418)
    #expect(String(decoding: error.body, as: UTF8.self).contains("teapot"))
  }

  @Test(arguments: TransportUnderTest.allCases, [204, 404, 500, 503])
  func statusesAreReturnedNotThrownBySend(transport: TransportUnderTest, status: Int) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/status/\(status)")
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == status)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func gzipBodyIsDecoded(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/gzip")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.headerFields["Content-Encoding"] == "gzip")
    #expect(json["gzipped"] as? Bool == true)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func deflateBodyIsDecoded(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/deflate")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.headerFields["Content-Encoding"] == "deflate")
    #expect(json["deflated"] as? Bool == true)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func binaryBodyHasTheRequestedSize(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/bytes/100000")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(body.length == 100_000)
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 1 << 20).count == 100_000)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func cookiesSetByARedirectAreSentToItsTarget(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/cookies/set?flavour=oatmeal")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.url?.path == "/cookies")
    #expect(json["cookies"] as? [String: String] == ["flavour": "oatmeal"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func repeatedResponseFieldsFollowEachClientsDocumentedForm(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/headers-order")
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.headerFields["X-Single"] == "1")
    switch transport {
    case .urlSession:
      // Foundation keeps response fields in a dictionary: repeated names are joined with ", ".
      let joined = response.headerFields["X-Order"]
      #expect(joined == "a, b" || joined == "a,b")
    case .curl:
      // libcurl hands over every field line: the server's order and repeated names are kept.
      #expect(response.headerFields.values(for: "X-Order") == ["a", "b"])
      let names = response.headerFields.map(\.name).filter { $0.hasPrefix("X-") }
      #expect(names == ["X-Order", "X-Order", "X-Single"])
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func noContentWithAStrayLengthEndsAtOnceWithoutABody(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/no-content-length")
    let request = HTTPRequest(method: .get, url: url, timeout: .seconds(5))
    let (response, body) = try await client.send(request)
    #expect(response.status == 204)
    #expect(try await body.collect(upTo: 1024).isEmpty)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func getWithABodyFollowsEachClientsDocumentedBehaviour(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/echo")
    let request = HTTPRequest(method: .get, url: url, body: HTTPBody("x"))
    switch transport {
    case .urlSession:
      // URLSession refuses such a request; the client says so before sending.
      let error = try await #require(throws: InvalidRequest.self) {
        try await client.send(request)
      }
      #expect(error.kind == .unsupported)
      #expect(error.description.contains("GET"))
    case .curl:
      // libcurl sends it as it is (some search APIs need it).
      let (_, echo) = try await sendForJSON(client, request)
      #expect(echo["method"] as? String == "GET")
      #expect(try echoedBody(echo) == Data("x".utf8))
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func refusedConnectionFailsWithTheURLAndIsTransient(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try #require(URL(string: "http://127.0.0.1:9/nothing"))
    let error = try #require(
      await failure { try await client.send(HTTPRequest(method: .get, url: url)) })
    transport.expectConnectionFailure(error, url: url, transient: true)
    #expect("\(error)".contains("127.0.0.1:9"))
    let failure = try #require(error as? TransportFailure, "\(error)")
    #expect(failure.kind == .cannotConnect)
    switch transport {
    case .urlSession: #expect(failure.code == URLError.Code.cannotConnectToHost.rawValue)
    case .curl: #expect(failure.code == 7)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func resetConnectionFailsWithConnectionFailure(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/reset")
    let error = try #require(
      await failure { try await client.send(HTTPRequest(method: .get, url: url)) })
    transport.expectConnectionFailure(error, url: url)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func truncatedBodyFailsInsteadOfEndingEarly(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/truncated")
    let error = try #require(
      await failure {
        let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
        return try await body.collect(upTo: 1024)
      })
    transport.expectConnectionFailure(error, url: url)
  }
}
