/// Finds the end of a chunked response body in the bytes received after its head, as they
/// arrived (before libcurl decodes them): the last chunk, then the trailer section up to its
/// empty line (RFC 9112, section 7.1). libcurl tells its callbacks no such end, so a duplex
/// exchange watches the raw bytes for it (`CurlTransfer+Duplex.swift`).
///
/// As lenient as libcurl's own decoder about line ends: a CR before each LF is optional.
/// Anything that is not chunked framing stops the watch (libcurl fails such a body itself).
struct ChunkedBodyEnd {
  enum State: Equatable {
    /// In a chunk-size line's hexadecimal digits.
    case size
    /// After the digits, up to the line's LF (chunk extensions, a CR).
    case sizeLineRest
    /// Inside a chunk's data, this many bytes left.
    case data(Int)
    /// After a chunk's data: its CR LF.
    case dataEnd
    /// At the start of a trailer line, or of the empty line that ends the body.
    case trailerLineStart
    /// After a CR at the start of a trailer line: the empty line's LF.
    case emptyLineEnd
    /// Inside a trailer field line.
    case trailerLine
    /// The body ended.
    case ended
    /// The bytes are not chunked framing: no end is looked for any more.
    case invalid
  }

  private(set) var state = State.size
  private var size = 0
  private var digits = 0

  /// Whether the body ended.
  var hasEnded: Bool { state == .ended }

  /// Reads the next bytes received; returns whether any of them was chunk data (a body byte
  /// libcurl is about to hand to the write callback).
  mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var carriedData = false
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch state {
      case .ended, .invalid:
        return carriedData
      case .size:
        if let value = Self.hexValue(byte) {
          // More than 15 digits cannot be a chunk this side of 2^60 bytes.
          guard digits < 15 else {
            state = .invalid
            continue
          }
          size = size << 4 | value
          digits += 1
        } else if digits == 0 {
          state = .invalid
          continue
        } else {
          state = .sizeLineRest
          continue
        }
      case .sizeLineRest:
        if byte == 0x0A {
          state = size == 0 ? .trailerLineStart : .data(size)
          size = 0
          digits = 0
        }
      case .data(let remaining):
        let taken = min(remaining, bytes.count - index)
        carriedData = true
        index += taken
        state = taken == remaining ? .dataEnd : .data(remaining - taken)
        continue
      case .dataEnd:
        if byte == 0x0A {
          state = .size
        } else if byte != 0x0D {
          state = .invalid
        }
      case .trailerLineStart:
        switch byte {
        case 0x0A: state = .ended
        case 0x0D: state = .emptyLineEnd
        default: state = .trailerLine
        }
      case .emptyLineEnd:
        state = byte == 0x0A ? .ended : .invalid
      case .trailerLine:
        if byte == 0x0A { state = .trailerLineStart }
      }
      index += 1
    }
    return carriedData
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: Int(byte - 0x30)
    case 0x41...0x46: Int(byte - 0x41 + 10)
    case 0x61...0x66: Int(byte - 0x61 + 10)
    default: nil
    }
  }
}
