// The API-manager sketch (`shared/seeds/002_…`): its GET and POST functions as written, using
// the SDK's `HTTPMethod` (`.rawValue`, `.post`), and the same `callAPI` signature built on the
// SDK, where the `[String: Any]` parameters and body are converted at the call. Adapted: the
// sketch's names it never defines (`baseUrl`, `BaseURL`, `APIError`, the `T` of
// `performPostRequest`) and httpbin as the server.

import EndpointCore
import EndpointJSON
import EndpointTestSupport
import EndpointTransport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

enum APIError: Error {
  case invalidResponse
}

struct APIManager {
  var baseUrl: String

  // MARK: The sketch, as written

  private func performGetRequest<T: Codable>(endpoint: String, params: [String: Any]?)
    async throws -> T
  {
    let method = HTTPMethod.get
    let urlString = "\(baseUrl)\(endpoint)"
    var urlComponents = URLComponents(string: urlString)
    var queryItems = [URLQueryItem]()
    if let params = params {
      for (key, value) in params {
        queryItems.append(URLQueryItem(name: key, value: "\(value)"))
      }
      urlComponents?.queryItems = queryItems
    }

    guard let url = urlComponents?.url else {
      throw URLError(.badURL)
    }
    var request = URLRequest(url: url)
    request.httpMethod = method.rawValue

    let (data, response) = try await URLSession.shared.data(for: request)
    guard let httpResponse = response as? HTTPURLResponse,
      (200...299).contains(httpResponse.statusCode)
    else {
      throw APIError.invalidResponse
    }

    do {
      let decoder = JSONDecoder()
      let object = try decoder.decode(T.self, from: data)
      return object
    } catch {
      throw error
    }
  }

  func performPostRequest<T: Codable>(endpoint: String, body: [String: Any]?) async throws -> T {
    let urlString = "\(BaseURL.jsonPlaceHolder.url)\(endpoint)"
    let urlComponents = URLComponents(string: urlString)

    guard let url = urlComponents?.url else {
      throw URLError(.badURL)
    }

    var request = URLRequest(url: url)
    request.httpMethod = HTTPMethod.post.rawValue

    if let body = body {
      let data = try JSONSerialization.data(withJSONObject: body, options: [])
      request.httpBody = data
    }

    let (data, response) = try await URLSession.shared.data(for: request)

    guard let httpResponse = response as? HTTPURLResponse else {
      throw APIError.invalidResponse
    }

    if !(200...299).contains(httpResponse.statusCode) {
      throw APIError.invalidResponse
    }

    let decoder = JSONDecoder()
    return try decoder.decode(T.self, from: data)
  }

  // MARK: The same signature on the SDK

  func callAPI<T: Codable & Sendable>(
    endpoint: String,
    method: HTTPMethod,
    params: [String: Any]?,
    body: [String: Any]?
  ) async throws -> T {
    let url = URL(string: "\(baseUrl)\(endpoint)")!
    let query = (params ?? [:]).sorted { $0.key < $1.key }.map {
      URLQueryItem(name: $0.key, value: "\($0.value)")
    }
    // `[String: Any]` is not Sendable: it becomes a JSONValue here, before anything is sent.
    let call: Endpoint<T> =
      if let body {
        Endpoint(json: method, url: url, query: query, body: try JSONValue(jsonObject: body))
      } else {
        Endpoint(json: method, url: url, query: query)
      }
    return try await URLSession.shared.call(call)
  }
}

/// The sketch's base URLs, pointed at httpbin.
enum BaseURL {
  case jsonPlaceHolder

  var url: String { ProcessInfo.processInfo.environment["ENDPOINT_HTTPBIN_URL"] ?? "" }
}

/// What httpbin echoes back.
struct Echo: Codable, Sendable {
  var args: [String: String]
  var json: JSONValue?
  var data: String?
  var form: [String: String]?
}

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct APIManagerSeedTests {
  @Test func sketchGetAndPostRunAsWritten() async throws {
    let manager = APIManager(baseUrl: try TestServers.httpbin.absoluteString)
    let got: Echo = try await manager.callSketchGet(
      endpoint: "/get", params: ["page": 2, "q": "milk"])
    #expect(got.args == ["page": "2", "q": "milk"])

    let posted: Echo = try await manager.performPostRequest(
      endpoint: "/post", body: ["title": "Milk", "count": 2, "tags": ["home"]])
    // The sketch sets no Content-Type: httpbin echoes the bytes as `data`, or as a form's one
    // key where URLSession called them a form.
    let text = posted.data.flatMap { $0.isEmpty ? nil : $0 } ?? posted.form?.keys.first ?? ""
    let sent = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    #expect(sent == ["title": "Milk", "count": 2, "tags": ["home"]])
  }

  @Test func callAPIOnTheSDKTakesTheSketchsDictionaries() async throws {
    let manager = APIManager(baseUrl: try TestServers.httpbin.absoluteString)
    let got: Echo = try await manager.callAPI(
      endpoint: "/get", method: .get, params: ["page": 2, "q": "milk"], body: nil)
    #expect(got.args == ["page": "2", "q": "milk"])

    let posted: Echo = try await manager.callAPI(
      endpoint: "/post", method: .post, params: nil,
      body: ["title": "Milk", "done": false, "tags": ["home", 1.5], "note": String?.none as Any])
    #expect(posted.json == ["title": "Milk", "done": false, "tags": ["home", 1.5], "note": nil])
  }

  @Test func callAPIRejectsABodyJSONCannotHold() async throws {
    let manager = APIManager(baseUrl: "http://127.0.0.1:1")
    await #expect(throws: EncodingFailure.self) {
      let _: Echo = try await manager.callAPI(
        endpoint: "/post", method: .post, params: nil, body: ["when": [Date()]])
    }
  }
}

extension APIManager {
  /// Reaches the sketch's private GET function.
  func callSketchGet<T: Codable>(endpoint: String, params: [String: Any]?) async throws -> T {
    try await performGetRequest(endpoint: endpoint, params: params)
  }
}
