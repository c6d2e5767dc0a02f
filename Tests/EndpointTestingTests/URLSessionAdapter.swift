import EndpointTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A minimal URLSession client for the end-to-end test, used until the transport module's client
/// is available on this branch. Loopback only, bodies in memory.
struct URLSessionAdapter: HTTPClient {
  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    for field in request.headerFields {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    if let body = request.body {
      urlRequest.httpBody = try await body.collect(upTo: 1 << 24)
    }
    let (data, response) = try await URLSession.shared.data(for: urlRequest)
    guard let http = response as? HTTPURLResponse else {
      throw URLError(.badServerResponse)
    }
    var fields = HTTPFields()
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String {
        try fields.append(value, for: name)
      }
    }
    return (
      HTTPResponse(status: http.statusCode, headerFields: fields, url: http.url), HTTPBody(data)
    )
  }
}
