import Foundation

/// SHA-256 (FIPS 180-4), fed in pieces: SigV4 hashes request bodies and canonical requests with
/// it. The package takes no outside dependency and Foundation on Linux has no digest, so the
/// example carries its own; an app would use CryptoKit or swift-crypto.
struct SHA256: Sendable {
  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19,
  ]
  private var pending: [UInt8] = []
  private var totalBytes: UInt64 = 0

  /// Adds bytes to the message.
  mutating func update(_ bytes: some Sequence<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in update(buffer: buffer) }
    if done == nil { Array(bytes).withUnsafeBufferPointer { update(buffer: $0) } }
  }

  private mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
    totalBytes += UInt64(buffer.count)
    var input = buffer[...]
    if !pending.isEmpty {
      let taken = input.prefix(64 - pending.count)
      pending.append(contentsOf: taken)
      input = input.dropFirst(taken.count)
      guard pending.count == 64 else { return }
      let block = pending
      block.withUnsafeBufferPointer { compress($0[...]) }
      pending.removeAll(keepingCapacity: true)
    }
    while input.count >= 64 {
      compress(input.prefix(64))
      input = input.dropFirst(64)
    }
    pending.append(contentsOf: input)
  }

  /// The 32-byte digest of everything added.
  func finalize() -> [UInt8] {
    var copy = self
    let bitLength = totalBytes * 8
    var tail: [UInt8] = [0x80]
    tail += [UInt8](repeating: 0, count: (55 - pending.count % 64 + 64) % 64)
    tail += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * $0)) }
    copy.update(tail)
    return copy.state.flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) }
    }
  }

  private mutating func compress(_ block: Slice<UnsafeBufferPointer<UInt8>>) {
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { words in
      for index in 0..<16 {
        let base = block.startIndex + index * 4
        words[index] =
          UInt32(block[base]) << 24 | UInt32(block[base + 1]) << 16
          | UInt32(block[base + 2]) << 8 | UInt32(block[base + 3])
      }
      for index in 16..<64 {
        let early = words[index - 15]
        let late = words[index - 2]
        let s0 = rotate(early, 7) ^ rotate(early, 18) ^ (early >> 3)
        let s1 = rotate(late, 17) ^ rotate(late, 19) ^ (late >> 10)
        words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
      }
      var (a, b, c, d, e, f, g, h) = (
        state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
      )
      for index in 0..<64 {
        let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
        let choice = (e & f) ^ (~e & g)
        let temp1 = h &+ s1 &+ choice &+ SHA256.roundConstants[index] &+ words[index]
        let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
        let majority = (a & b) ^ (a & c) ^ (b & c)
        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ s0 &+ majority)
      }
      state[0] &+= a
      state[1] &+= b
      state[2] &+= c
      state[3] &+= d
      state[4] &+= e
      state[5] &+= f
      state[6] &+= g
      state[7] &+= h
    }
  }

  private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    value >> count | value << (32 - count)
  }

  /// The digest of `bytes`.
  static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// HMAC-SHA256 (RFC 2104) of `message` under `key`.
  static func hmac(key: [UInt8], _ message: some Sequence<UInt8>) -> [UInt8] {
    var key = key.count > 64 ? hash(key) : key
    key += [UInt8](repeating: 0, count: 64 - key.count)
    var inner = SHA256()
    inner.update(key.map { $0 ^ 0x36 })
    inner.update(message)
    var outer = SHA256()
    outer.update(key.map { $0 ^ 0x5c })
    outer.update(inner.finalize())
    return outer.finalize()
  }
}

extension Sequence<UInt8> {
  /// Lowercase hexadecimal, as SigV4 writes hashes and signatures.
  var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    for byte in self {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
