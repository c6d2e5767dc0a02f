#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Splits a body's chunks into lines ended by LF, CRLF or a lone CR, across chunk boundaries.
struct LineReader {
  private static let lineFeed: UInt8 = 0x0A
  private static let carriageReturn: UInt8 = 0x0D

  private var chunks: HTTPBody.AsyncIterator
  private var chunk = Data()
  private var position = 0
  private var line: [UInt8] = []
  private var afterCarriageReturn = false
  private var ended = false
  /// The longest line, in bytes, before a ``TransportFailure/Kind/lineTooLong``.
  let maximumLength: Int
  /// What a line is, for the error: a line, or a server-sent event.
  enum Unit { case line, serverSentEvent }
  let kind: Unit

  init(_ body: HTTPBody, maximumLength: Int, kind: Unit) {
    chunks = body.makeAsyncIterator()
    self.maximumLength = max(0, maximumLength)
    self.kind = kind
  }

  /// The next line's bytes without its ending; `includeUnterminated` decides whether text after
  /// the last line ending counts as a line at the end of the body.
  mutating func next(includeUnterminated: Bool) async throws -> [UInt8]? {
    while true {
      if let found = try scan() { return found }
      if ended { return nil }
      guard let next = try await chunks.next() else {
        ended = true
        guard includeUnterminated, !line.isEmpty else { return nil }
        defer { line = [] }
        return line
      }
      chunk = next
      position = 0
    }
  }

  private mutating func scan() throws(TransportFailure) -> [UInt8]? {
    let count = chunk.count
    guard position < count else { return nil }
    let limit = maximumLength
    let tooLong = TransportFailure.lineTooLong(
      serverSentEvent: kind == .serverSentEvent, limit: limit)
    let found = chunk.withUnsafeBytes { raw -> [UInt8]?? in
      let bytes = raw.bindMemory(to: UInt8.self)
      if afterCarriageReturn {
        afterCarriageReturn = false
        if bytes[position] == Self.lineFeed { position += 1 }
      }
      var index = position
      while index < count {
        let byte = bytes[index]
        if byte == Self.lineFeed || byte == Self.carriageReturn {
          if line.count + (index - position) > limit { return .some(nil) }
          line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<index]))
          position = index + 1
          afterCarriageReturn = byte == Self.carriageReturn
          if afterCarriageReturn, position < count, bytes[position] == Self.lineFeed {
            position += 1
            afterCarriageReturn = false
          }
          defer { line = [] }
          return line
        }
        index += 1
      }
      if line.count + (count - position) > limit { return .some(nil) }
      line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<count]))
      position = count
      return nil
    }
    // `.some(nil)` marks a line past the limit; the bytes read so far are let go.
    switch found {
    case .some(.none):
      line = []
      throw tooLong
    case .some(.some(let line)): return line
    case .none: return nil
    }
  }
}
