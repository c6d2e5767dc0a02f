#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The format of one ``DiskCacheStore`` file: a magic number, the length of a JSON header
/// (the key and each variant's head), the bodies one after another, and an FNV-1a checksum of
/// everything before it.
///
/// No URL is written with its credentials: the key (the request's URL) and each variant's URL
/// are written as ``Redaction/redacted(_:additionalQueryNames:)`` shows them, user information and secret query values
/// replaced by `%3Credacted%3E`, and the key's full text only as a hash, which tells a file of
/// another key apart. A variant's URL that is the key reads back as the key; another one (the
/// end of a redirect) reads back redacted.
enum DiskCacheFile {
  private struct Header: Codable {
    var key: String
    var keyHash: String
    var entries: [Record]
  }

  private struct Record: Codable {
    var url: String
    var status: Int
    var fields: [[String]]
    var requestTime: Double
    var responseTime: Double
    var vary: [String: String]
    var bodyLength: Int
  }

  private static let magic = Data("EPCACHE2".utf8)

  /// `text` (a URL) with its user information and secret query values replaced.
  static func redacted(_ text: String) -> String {
    var removed: [String] = []
    return URLRedaction.redacted(
      text: text, hidingUserInfo: true, replacement: "%3Credacted%3E",
      hidesQueryItem: { URLRedaction.isSensitiveQueryName($0) }, removed: &removed)
  }

  /// A hash of the key's full text, other than the one that names the file, so that two keys
  /// that differ only in a redacted part do not read each other's file.
  static func keyHash(_ key: String) -> String {
    String(fnv1a(Data(("key:" + key).utf8)), radix: 16)
  }

  static func encode(_ entries: [CachedResponse], key: String) -> Data {
    let header = Header(
      key: redacted(key), keyHash: keyHash(key),
      entries: entries.map { entry in
        Record(
          url: redacted(entry.url.absoluteString), status: entry.status,
          fields: entry.headerFields.map { [$0.name, $0.value] },
          requestTime: entry.requestTime.timeIntervalSince1970,
          responseTime: entry.responseTime.timeIntervalSince1970,
          vary: entry.varyValues, bodyLength: entry.body.count)
      })
    // Encoding plain strings and numbers cannot fail.
    let json = (try? JSONEncoder().encode(header)) ?? Data()
    var data = magic
    append(UInt64(json.count), to: &data)
    data.append(json)
    for entry in entries { data.append(entry.body) }
    append(fnv1a(data), to: &data)
    return data
  }

  /// The variants in `data`, or `nil` when it is truncated, corrupt or holds another key.
  static func decode(_ data: Data, key: String) -> [CachedResponse]? {
    let bytes = [UInt8](data)
    guard bytes.count >= magic.count + 16, bytes.starts(with: magic) else { return nil }
    let checksumStart = bytes.count - 8
    guard read(bytes, at: checksumStart) == fnv1a(Data(bytes[..<checksumStart])) else {
      return nil
    }
    let headerLength = read(bytes, at: magic.count)
    let headerStart = magic.count + 8
    guard headerLength <= UInt64(checksumStart - headerStart),
      let header = try? JSONDecoder().decode(
        Header.self, from: Data(bytes[headerStart..<headerStart + Int(headerLength)])),
      header.key == redacted(key), header.keyHash == keyHash(key)
    else { return nil }
    var offset = headerStart + Int(headerLength)
    var entries: [CachedResponse] = []
    for record in header.entries {
      guard record.bodyLength >= 0, record.bodyLength <= checksumStart - offset,
        let url = URL(string: record.url == header.key ? key : record.url),
        record.fields.allSatisfy({ $0.count == 2 }),
        let fields = try? HTTPFields(record.fields.map { ($0[0], $0[1]) })
      else { return nil }
      let body = Data(bytes[offset..<offset + record.bodyLength])
      offset += record.bodyLength
      entries.append(
        CachedResponse(
          url: url, status: record.status, headerFields: fields, body: body,
          requestTime: Date(timeIntervalSince1970: record.requestTime),
          responseTime: Date(timeIntervalSince1970: record.responseTime),
          varyValues: record.vary))
    }
    return offset == checksumStart ? entries : nil
  }

  /// The 64-bit FNV-1a hash of `data`.
  static func fnv1a(_ data: Data) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  private static func append(_ value: UInt64, to data: inout Data) {
    for shift in stride(from: 56, through: 0, by: -8) {
      data.append(UInt8(truncatingIfNeeded: value >> shift))
    }
  }

  private static func read(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    bytes[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
  }
}
