import EndpointCore
import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The trailer fields of one response, set by the transport as they arrive and read by the
/// caller once the body has ended (through ``read``, a response body's `trailers`).
package final class TrailerBox: Sendable {
  private let storage = Mutex<HTTPFields?>(nil)

  package init() {}

  package var fields: HTTPFields? { storage.withVisibleLock { $0 } }

  /// Reads ``fields``: what a response body's `trailers` is set to.
  package var read: @Sendable () -> HTTPFields? { { [self] in fields } }

  package func set(_ fields: HTTPFields?) {
    storage.withVisibleLock { $0 = fields }
  }

  /// Adds one trailer line as libcurl hands it over (`Name: value` and its line end); an empty
  /// line or a field HTTPFields refuses is skipped.
  package func add(line: some Collection<UInt8>) {
    let bytes = Array(line)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
    let name = String(decoding: bytes[..<colon], as: UTF8.self)
    // The value without the optional white space and line end around it.
    var value = bytes[(colon + 1)...]
    let edge: Set<UInt8> = [0x20, 0x09, 0x0d, 0x0a]
    while let first = value.first, edge.contains(first) { value.removeFirst() }
    while let last = value.last, edge.contains(last) { value.removeLast() }
    let text = String(decoding: value, as: UTF8.self)
    storage.withVisibleLock { fields in
      var updated = fields ?? HTTPFields()
      if (try? updated.append(text, for: name)) != nil { fields = updated }
    }
  }
}
