import EndpointCurl
import Foundation
import Testing

@Suite struct SendTests {
  let client: CurlHTTPClient

  init() throws {
    client = try CurlHTTPClient()
  }

  @Test func getReturnsStatusHeadersAndDecodedQuery() async throws {
    let url = try TestServers.httpbin.adding("/get?name=a%20b&x=1")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(response.mediaType == "application/json")
    #expect(json["args"] as? [String: String] == ["name": "a b", "x": "1"])
  }

  @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
  func methodsWithBodyReachTheServer(method: HTTPMethod) async throws {
    let url = try TestServers.httpbin.adding("/anything")
    var request = HTTPRequest(method: method, url: url, body: HTTPBody("payload-\(method)"))
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == method.rawValue)
    #expect(json["data"] as? String == "payload-\(method)")
  }

  @Test func headMethodHasNoBody() async throws {
    let url = try TestServers.httpbin.adding("/get")
    let (response, body) = try await client.send(HTTPRequest(method: .head, url: url))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 1024).isEmpty)
  }

  @Test func endpointQueryAndHeadersArrive() async throws {
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

  @Test func formBodyIsDecodedByTheServer() async throws {
    let endpoint = Endpoint(
      .post,
      url: try TestServers.httpbin.adding("/post"),
      payload: .formURLEncoded([("name", "Ada Lovelace"), ("tags", "a&b=c")]),
      parser: .data
    )
    let json = try jsonObject(try await client.call(endpoint))
    #expect(json["form"] as? [String: String] == ["name": "Ada Lovelace", "tags": "a&b=c"])
  }

  @Test func multipartBodyIsDecodedByTheServer() async throws {
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

  @Test func jsonBodyRoundTrips() async throws {
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

  @Test func unacceptedStatusReachesTheParserAsUnexpectedResponse() async throws {
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

  @Test(arguments: [204, 404, 500, 503])
  func statusesAreReturnedNotThrownBySend(status: Int) async throws {
    let url = try TestServers.httpbin.adding("/status/\(status)")
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == status)
  }

  @Test func gzipBodyIsDecoded() async throws {
    let url = try TestServers.httpbin.adding("/gzip")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.headerFields["Content-Encoding"] == "gzip")
    #expect(json["gzipped"] as? Bool == true)
  }

  @Test func binaryBodyHasTheRequestedSize() async throws {
    let url = try TestServers.httpbin.adding("/bytes/100000")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(body.length == 100_000)
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 1 << 20).count == 100_000)
  }

  @Test func cookiesSetByARedirectAreSentToItsTarget() async throws {
    let url = try TestServers.httpbin.adding("/cookies/set?flavour=oatmeal")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.url?.path == "/cookies")
    #expect(json["cookies"] as? [String: String] == ["flavour": "oatmeal"])
  }

  @Test func responseFieldsKeepTheServersOrderAndRepeatedNames() async throws {
    let url = try TestServers.fault.adding("/headers-order")
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.headerFields.values(for: "X-Order") == ["a", "b"])
    #expect(response.headerFields["X-Single"] == "1")
    let names = response.headerFields.map(\.name).filter { $0.hasPrefix("X-") }
    #expect(names == ["X-Order", "X-Order", "X-Single"])
  }

  @Test func noContentWithAStrayLengthEndsAtOnceWithoutABody() async throws {
    let url = try TestServers.fault.adding("/no-content-length")
    let request = HTTPRequest(method: .get, url: url, timeout: .seconds(5))
    let (response, body) = try await client.send(request)
    #expect(response.status == 204)
    #expect(try await body.collect(upTo: 1024).isEmpty)
  }

  @Test func getWithABodyIsSentAsIs() async throws {
    // URLSession refuses this request; libcurl sends it (some search APIs need it).
    let url = try TestServers.fault.adding("/echo")
    let request = HTTPRequest(method: .get, url: url, body: HTTPBody("x"))
    let (_, echo) = try await sendForJSON(client, request)
    #expect(echo["method"] as? String == "GET")
    #expect(try echoedBody(echo) == Data("x".utf8))
  }

  @Test func refusedConnectionFailsWithTheURLAndCode() async throws {
    let url = try #require(URL(string: "http://127.0.0.1:9/nothing"))
    let error = try await #require(throws: CurlHTTPClient.ConnectionFailure.self) {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.url == url)
    #expect(error.kind == .cannotConnect)
    #expect(error.curlCode == 7)
    #expect(error.isTransient)
    #expect(error.description.contains("127.0.0.1:9"))
  }

  @Test func resetConnectionFailsWithConnectionFailure() async throws {
    let url = try TestServers.fault.adding("/reset")
    let error = try await #require(throws: CurlHTTPClient.ConnectionFailure.self) {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.url == url)
  }

  @Test func truncatedBodyFailsInsteadOfEndingEarly() async throws {
    let url = try TestServers.fault.adding("/truncated")
    await #expect(throws: CurlHTTPClient.ConnectionFailure.self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1024)
    }
  }
}
