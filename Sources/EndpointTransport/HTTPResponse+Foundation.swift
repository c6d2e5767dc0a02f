import EndpointKernel
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension HTTPResponse {
  /// The response head of a Foundation response.
  ///
  /// Foundation keeps header fields in a dictionary: repeated names arrive joined with `", "`
  /// and the server's order is lost, so the fields are ordered by name to be deterministic.
  init(_ response: HTTPURLResponse) {
    // One read: each read of `allHeaderFields` converts Foundation's whole dictionary.
    let headers = response.allHeaderFields
    var pairs: [(name: String, value: String)] = []
    pairs.reserveCapacity(headers.count)
    for (name, value) in headers {
      guard let name = name as? String else { continue }
      pairs.append((name, value as? String ?? "\(value)"))
    }
    pairs.sort { FieldName.precedes($0.name, $1.name) }
    var fields = HTTPFields()
    for (name, value) in pairs {
      // A field Foundation accepted but HTTPFields rejects (CR, LF, NUL) is dropped, not fatal.
      try? fields.append(value, for: name)
    }
    self.init(status: response.statusCode, headerFields: fields, url: response.url)
  }
}
