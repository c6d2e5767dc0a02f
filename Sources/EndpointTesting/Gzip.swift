import Foundation

/// Decompression of gzip bodies (RFC 1952 around RFC 1951 DEFLATE), so secrets inside a
/// compressed body are found and redacted. Foundation offers no zlib on Linux, and a fixture
/// check needs only to read, never to compress.
enum Gzip {
  /// Whether `data` starts with the gzip magic bytes.
  static func isCompressed(_ data: Data) -> Bool {
    data.count > 18 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
  }

  /// The decompressed members of a gzip body, or `nil` when it is not valid gzip or would
  /// inflate beyond `limit` bytes.
  static func decompress(_ data: Data, limit: Int = 64 * 1024 * 1024) -> Data? {
    let bytes = Array(data)
    guard bytes.count > 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else { return nil }
    let flags = bytes[3]
    var position = 10
    if flags & 0x04 != 0 {
      guard position + 2 <= bytes.count else { return nil }
      position += 2 + Int(bytes[position]) + Int(bytes[position + 1]) << 8
    }
    for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
      while position < bytes.count, bytes[position] != 0 { position += 1 }
      position += 1
    }
    if flags & 0x02 != 0 { position += 2 }
    guard position < bytes.count else { return nil }
    var inflater = Inflater(input: bytes, position: position, limit: limit)
    guard inflater.run() else { return nil }
    return Data(inflater.output)
  }
}

/// DEFLATE decoding after Mark Adler's `puff.c`: stored, fixed and dynamic Huffman blocks.
private struct Inflater {
  struct Huffman {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int]

    init?(lengths: ArraySlice<Int>) {
      symbols = [Int](repeating: 0, count: lengths.count)
      for length in lengths { counts[length] += 1 }
      var left = 1
      for length in 1..<16 {
        left <<= 1
        left -= counts[length]
        if left < 0 { return nil }
      }
      var offsets = [Int](repeating: 0, count: 16)
      for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
      for (symbol, length) in lengths.enumerated() where length != 0 {
        symbols[offsets[length]] = symbol
        offsets[length] += 1
      }
    }
  }

  let input: [UInt8]
  var position: Int
  let limit: Int
  var output: [UInt8] = []
  var bitBuffer = 0
  var bitCount = 0
  var failed = false

  init(input: [UInt8], position: Int, limit: Int) {
    self.input = input
    self.position = position
    self.limit = limit
  }

  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  mutating func bits(_ needed: Int) -> Int {
    var value = bitBuffer
    while bitCount < needed {
      guard position < input.count else {
        failed = true
        return 0
      }
      value |= Int(input[position]) << bitCount
      position += 1
      bitCount += 8
    }
    bitBuffer = value >> needed
    bitCount -= needed
    return value & ((1 << needed) - 1)
  }

  mutating func decode(_ huffman: Huffman) -> Int {
    var code = 0
    var first = 0
    var index = 0
    for length in 1..<16 {
      code |= bits(1)
      if failed { return -1 }
      let count = huffman.counts[length]
      if code - count < first { return huffman.symbols[index + (code - first)] }
      index += count
      first += count
      first <<= 1
      code <<= 1
    }
    failed = true
    return -1
  }

  mutating func run() -> Bool {
    var last = 0
    repeat {
      last = bits(1)
      let type = bits(2)
      if failed { return false }
      switch type {
      case 0: guard stored() else { return false }
      case 1: guard fixed() else { return false }
      case 2: guard dynamic() else { return false }
      default: return false
      }
    } while last == 0
    return !failed
  }

  mutating func stored() -> Bool {
    bitBuffer = 0
    bitCount = 0
    guard position + 4 <= input.count else { return false }
    let length = Int(input[position]) | Int(input[position + 1]) << 8
    let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
    position += 4
    guard length == ~complement & 0xFFFF, position + length <= input.count,
      output.count + length <= limit
    else { return false }
    output += input[position..<position + length]
    position += length
    return true
  }

  mutating func fixed() -> Bool {
    var lengths = [Int](repeating: 8, count: 288)
    for symbol in 144..<256 { lengths[symbol] = 9 }
    for symbol in 256..<280 { lengths[symbol] = 7 }
    guard let literals = Huffman(lengths: lengths[...]),
      let distances = Huffman(lengths: [Int](repeating: 5, count: 30)[...])
    else { return false }
    return codes(literals, distances)
  }

  mutating func dynamic() -> Bool {
    let literalCount = bits(5) + 257
    let distanceCount = bits(5) + 1
    let codeCount = bits(4) + 4
    guard !failed, literalCount <= 286, distanceCount <= 30 else { return false }
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    var lengths = [Int](repeating: 0, count: 320)
    for index in 0..<codeCount { lengths[order[index]] = bits(3) }
    guard !failed, let lengthCode = Huffman(lengths: lengths[0..<19]) else { return false }
    var index = 0
    while index < literalCount + distanceCount {
      var symbol = decode(lengthCode)
      guard symbol >= 0 else { return false }
      if symbol < 16 {
        lengths[index] = symbol
        index += 1
        continue
      }
      var length = 0
      if symbol == 16 {
        guard index > 0 else { return false }
        length = lengths[index - 1]
        symbol = 3 + bits(2)
      } else if symbol == 17 {
        symbol = 3 + bits(3)
      } else {
        symbol = 11 + bits(7)
      }
      guard !failed, index + symbol <= literalCount + distanceCount else { return false }
      for _ in 0..<symbol {
        lengths[index] = length
        index += 1
      }
    }
    guard lengths[256] != 0,
      let literals = Huffman(lengths: lengths[0..<literalCount]),
      let distances = Huffman(lengths: lengths[literalCount..<literalCount + distanceCount])
    else { return false }
    return codes(literals, distances)
  }

  mutating func codes(_ literals: Huffman, _ distances: Huffman) -> Bool {
    while true {
      var symbol = decode(literals)
      guard symbol >= 0 else { return false }
      if symbol < 256 {
        guard output.count < limit else { return false }
        output.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return true }
      symbol -= 257
      guard symbol < 29 else { return false }
      let length = Self.lengthBase[symbol] + bits(Self.lengthExtra[symbol])
      let distanceSymbol = decode(distances)
      guard distanceSymbol >= 0, distanceSymbol < 30 else { return false }
      let distance = Self.distanceBase[distanceSymbol] + bits(Self.distanceExtra[distanceSymbol])
      guard !failed, distance <= output.count, output.count + length <= limit else { return false }
      let start = output.count - distance
      for offset in 0..<length { output.append(output[start + offset]) }
    }
  }
}
