import EndpointCore
import Foundation
import Synchronization

/// The S3 calls of the example, one step each, every result checked.
final class S3Tour<Transport: HTTPTransferClient> {
  let transport: Transport
  /// Signed requests, relative paths resolved against the server.
  let client: MiddlewareClient<Transport>
  let signer: SigV4Signer
  let endpoint: URL
  let bucket: String
  /// Steps passed so far.
  private(set) var steps = 0
  private let scratch: URL
  private let serverSlowsDown: Bool

  init(
    transport: Transport, endpoint: URL, region: String, credentials: AWSCredentials,
    bucket: String?, serverSlowsDown: Bool
  ) {
    self.serverSlowsDown = serverSlowsDown
    self.transport = transport
    self.endpoint = endpoint
    signer = SigV4Signer(credentials: credentials, region: region)
    // The signer is last: it signs the request exactly as the transport will send it.
    client = transport.with(BaseURLMiddleware(endpoint), signer)
    self.bucket = bucket ?? "endpoint-example-\(UInt32.random(in: 0...UInt32.max))"
    scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("s3-example-\(UUID().uuidString)")
  }

  func run() async throws {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let (client, bucket) = (self.client, self.bucket)

    // The payload hashes go to the server as text it does not recompute: check the hash itself.
    try await step("SHA-256 and HMAC-SHA256 give the published answers") {
      try SHA256.checkKnownAnswers()
    }

    try await step("SigV4 pre-signs AWS's published example to its published signature") {
      try SigV4Signer.checkPublishedExample()
    }

    try await step("create the bucket \(bucket)") {
      try await client.s3(S3.createBucket(bucket))
    }

    try await step("a wrong secret is refused: S3Error SignatureDoesNotMatch") {
      var wrong = signer
      wrong.credentials.secretAccessKey = "not-the-secret"
      let forged = transport.with(BaseURLMiddleware(endpoint), wrong)
      try await expectS3Error("SignatureDoesNotMatch", status: 403) {
        try await forged.s3(S3.listObjects(bucket))
      }
    }

    // Space, plus, tilde and non-ASCII: SigV4's canonical encoding has to match the wire's.
    let noteKey = "notes/hello world+ü~.txt"
    let note = "Hello from Endpoint, signed with SigV4.\n"
    try await step("put and get bytes under the key \"\(noteKey)\"") {
      let eTag = try await client.s3(S3.putObject(bucket, key: noteKey, payload: .text(note)))
      let body = try await client.s3(S3.getObject(bucket, key: noteKey))
      try check(String(decoding: body, as: UTF8.self) == note, "the object came back changed")
      try check(eTag.hasPrefix("\""), "the ETag \(eTag) is not quoted")
    }

    try await step("a missing key is S3Error NoSuchKey") {
      try await expectS3Error("NoSuchKey", status: 404) {
        try await client.s3(S3.getObject(bucket, key: "no/such key"))
      }
    }

    let fileKey = "files/stream.bin"
    let file = scratch.appendingPathComponent("stream.bin")
    let fileHash = try TestFile.write(file, bytes: 3 << 20 + 12_345, seed: 1)
    try await step("stream a 3 MiB file up with its known hash, and down to a file") {
      try await client.s3(
        S3.putObject(bucket, key: fileKey, payload: try .file(file), sha256: fileHash))
      let copy = scratch.appendingPathComponent("stream-copy.bin")
      try await client.download(S3.getObject(bucket, key: fileKey), to: copy)
      try check(try TestFile.sha256(of: copy) == fileHash, "the downloaded file differs")
    }

    try await step("a body that is not the hash it signed is refused: XAmzContentSHA256Mismatch") {
      let wrongHash = SHA256.hash(Array("another body".utf8)).hex
      try await expectS3Error("XAmzContentSHA256Mismatch", status: 400) {
        try await client.s3(
          S3.putObject(
            bucket, key: "files/mismatch.bin", payload: try .file(file), sha256: wrongHash))
      }
    }

    try await step("stream a file up, hashed by the signer as it signs") {
      let key = "files/hashed-by-signer.bin"
      try await client.s3(S3.putObject(bucket, key: key, payload: try .file(file)))
      let copy = scratch.appendingPathComponent("hashed-copy.bin")
      try await client.download(S3.getObject(bucket, key: key), to: copy)
      try check(try TestFile.sha256(of: copy) == fileHash, "the downloaded file differs")
    }

    let listed = (0..<5).map { "list/item-\($0)" }
    try await step("list 5 objects 2 a page, following continuation tokens") {
      for key in listed {
        try await client.s3(S3.putObject(bucket, key: key, payload: .text(key)))
      }
      let first = S3.listObjects(bucket, prefix: "list/", maxKeys: 2)
      var pageSizes: [Int] = []
      for try await page in client.pages(of: first, paginator: S3.listPages) {
        pageSizes.append(page.resource.objects.count)
      }
      try check(pageSizes == [2, 2, 1], "pages of \(pageSizes) objects, not [2, 2, 1]")
      var keys: [String] = []
      for try await object in client.items(of: first, paginator: S3.listPages) {
        keys.append(object.key)
      }
      try check(keys == listed, "listed \(keys)")
    }

    let bigKey = "files/multipart.bin"
    let big = scratch.appendingPathComponent("multipart.bin")
    let partSize = 5 << 20  // S3's smallest part but the last
    let bigHash = try TestFile.write(big, bytes: partSize + 1 << 20 + 7, seed: 2)
    try await step("multipart upload of a 6 MiB file in two parts, each streamed from disk") {
      let uploadID = try await client.s3(S3.createMultipartUpload(bucket, key: bigKey))
      let size = Int64(try TestFile.size(of: big))
      var parts: [S3.Part] = []
      do {
        for offset in stride(from: Int64(0), to: size, by: partSize) {
          let slice = FileSlice(
            file: big, offset: offset, length: min(Int64(partSize), size - offset))
          // A one-shot stream: hashed first, so the signer signs the hash instead of reading it.
          let hash = try await slice.sha256()
          parts.append(
            try await client.s3(
              S3.uploadPart(
                bucket, key: bigKey, uploadID: uploadID, number: parts.count + 1,
                body: HTTPBody(slice, length: slice.length), sha256: hash)))
        }
        let eTag = try await client.s3(
          S3.completeMultipartUpload(bucket, key: bigKey, uploadID: uploadID, parts: parts))
        try check(eTag.hasSuffix("-2\""), "the ETag \(eTag) is not a two-part upload's")
      } catch {
        try? await client.s3(S3.abortMultipartUpload(bucket, key: bigKey, uploadID: uploadID))
        throw error
      }
      let copy = scratch.appendingPathComponent("multipart-copy.bin")
      try await client.download(S3.getObject(bucket, key: bigKey), to: copy)
      try check(try TestFile.sha256(of: copy) == bigHash, "the assembled object differs")
    }

    try await step("a ranged GET across the parts' boundary answers 206 with those bytes") {
      let range = Int64(partSize - 10)...Int64(partSize + 9)
      let (bytes, response) = try await client.call(
        S3.getObject(bucket, key: bigKey, range: range).withResponse())
      let reader = try FileHandle(forReadingFrom: big)
      defer { try? reader.close() }
      try reader.seek(toOffset: UInt64(range.lowerBound))
      let expected = try reader.read(upToCount: 20)
      try check(response.status == 206, "status \(response.status), not 206")
      try check(bytes == expected, "the range's bytes differ")
      let contentRange = response.headerFields["Content-Range"] ?? ""
      try check(
        contentRange.hasPrefix("bytes \(range.lowerBound)-\(range.upperBound)/"),
        "Content-Range \(contentRange)")
    }

    try await step("a pre-signed URL gets the object without credentials; a forged one is refused")
    {
      let url = endpoint.appendingPathComponent(bucket).appendingPathComponent(noteKey)
      let presigned = try signer.presignedURL(for: url, expires: 300, at: Date())
      // The bare transport: no signer, no credentials, only the URL.
      let body = try await transport.s3(Endpoint(url: presigned, parser: .data))
      try check(String(decoding: body, as: UTF8.self) == note, "the object came back changed")
      var forged = URLComponents(url: presigned, resolvingAgainstBaseURL: false)!
      forged.queryItems = forged.queryItems?.map { item in
        item.name == "X-Amz-Signature"
          ? URLQueryItem(name: item.name, value: String(repeating: "0", count: 64)) : item
      }
      try await expectS3Error("SignatureDoesNotMatch", status: 403) {
        try await transport.s3(Endpoint(url: forged.url!, parser: .data))
      }
    }

    if serverSlowsDown {
      try await step("503 SlowDown is a typed error; RetryMiddleware resends, signed afresh") {
        let key = "retry/slow-down-twice"
        try await client.s3(S3.putObject(bucket, key: key, payload: .text("patience")))
        try await expectS3Error("SlowDown", status: 503) {
          try await client.s3(S3.getObject(bucket, key: key))
        }
        // Retries wrap the signer, so every attempt carries its own date and signature.
        let attempts = Mutex(0)
        let counting = ClosureMiddleware { request, next in
          attempts.withLock { $0 += 1 }
          return try await next(request)
        }
        let retrying = transport.with(
          BaseURLMiddleware(endpoint),
          RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(200))),
          signer, counting)
        let body = try await retrying.s3(S3.getObject(bucket, key: key))
        try check(
          String(decoding: body, as: UTF8.self) == "patience", "the object came back changed")
        let sent = attempts.withLock { $0 }
        try check(sent == 2, "\(sent) attempts, not 2 (one 503, then the object)")
      }
    } else {
      print("skipped: the retry step (the server does not slow down; see --server-slows-down)")
    }

    try await step("delete every object, then the bucket; it is gone: S3Error NoSuchBucket") {
      try await deleteAll()
      try await expectS3Error("NoSuchBucket", status: 404) {
        try await client.s3(S3.listObjects(bucket))
      }
    }
  }

  /// Deletes the bucket's objects and the bucket, whatever the tour left; errors are ignored.
  func cleanUp() async {
    try? await deleteAll()
    try? FileManager.default.removeItem(at: scratch)
  }

  private func deleteAll() async throws {
    var keys: [String] = []
    for try await object in client.items(of: S3.listObjects(bucket), paginator: S3.listPages) {
      keys.append(object.key)
    }
    for key in keys { try await client.s3(S3.deleteObject(bucket, key: key)) }
    try await client.s3(S3.deleteBucket(bucket))
  }

  private func step(_ name: String, _ body: () async throws -> Void) async throws {
    print("step \(steps + 1): \(name)")
    try await body()
    steps += 1
  }
}

/// A check of the tour that failed.
struct CheckFailed: Error, CustomStringConvertible {
  var description: String
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw CheckFailed(description: message()) }
}

/// Runs `body`, which must fail with the S3 error `code` and `status`.
private func expectS3Error(
  _ code: String, status: Int, _ body: () async throws -> some Any
) async throws {
  do {
    _ = try await body()
  } catch let error as S3Error {
    try check(error.code == code && error.status == status, "expected \(code), got \(error)")
    print("  \(error)")
    return
  }
  throw CheckFailed(description: "expected S3Error \(code), but the call succeeded")
}

extension SHA256 {
  /// FIPS 180-4's examples (one block, two blocks, a million `a` fed in uneven pieces) and
  /// RFC 4231's second HMAC case.
  static func checkKnownAnswers() throws {
    let cases = [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
    ]
    for (text, digest) in cases {
      try check(hash(Array(text.utf8)).hex == digest, "SHA-256 of \"\(text)\" is wrong")
    }
    var million = SHA256()
    var fed = 0
    var piece = 1
    while fed < 1_000_000 {
      let count = min(piece, 1_000_000 - fed)
      million.update(Data(repeating: UInt8(ascii: "a"), count: count))
      fed += count
      piece = piece * 7 % 9_973 + 1
    }
    try check(
      million.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
      "SHA-256 of a million a is wrong")
    try check(
      hmac(key: Array("Jefe".utf8), "what do ya want for nothing?".utf8).hex
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      "HMAC-SHA256 is wrong")
  }
}

extension SigV4Signer {
  /// The pre-signed URL example of Amazon S3's documentation ("Authenticating Requests: Using
  /// Query Parameters"): its key, bucket, time and expiry give its signature.
  static func checkPublishedExample() throws {
    let signer = SigV4Signer(
      credentials: AWSCredentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE",
        secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
      region: "us-east-1")
    let url = try signer.presignedURL(
      for: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!, expires: 86_400,
      at: Date(timeIntervalSince1970: 1_369_353_600))  // 2013-05-24T00:00:00Z
    let signature = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
      .first { $0.name == "X-Amz-Signature" }?.value
    try check(
      signature == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
      "the signature of AWS's example is \(signature ?? "missing")")
  }
}

/// Bytes `offset..<offset + length` of a file, read in 64 KiB chunks as they are asked for: a
/// multipart upload's part, sent without holding it in memory.
struct FileSlice: AsyncSequence, Sendable {
  typealias Element = Data
  let file: URL
  let offset: Int64
  let length: Int64

  struct AsyncIterator: AsyncIteratorProtocol {
    let slice: FileSlice
    var handle: FileHandle?
    var remaining: Int64

    mutating func next() async throws -> Data? {
      guard remaining > 0 else {
        try handle?.close()
        handle = nil
        return nil
      }
      if handle == nil {
        let opened = try FileHandle(forReadingFrom: slice.file)
        try opened.seek(toOffset: UInt64(slice.offset))
        handle = opened
      }
      guard let chunk = try handle?.read(upToCount: Int(Swift.min(remaining, 64 << 10))),
        !chunk.isEmpty
      else {
        throw CheckFailed(description: "\(slice.file.lastPathComponent) ended early")
      }
      remaining -= Int64(chunk.count)
      return chunk
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(slice: self, handle: nil, remaining: length)
  }

  /// The SHA-256 of the slice, read through once.
  func sha256() async throws -> String {
    var hasher = SHA256()
    for try await chunk in self { hasher.update(chunk) }
    return hasher.finalize().hex
  }
}

/// Files of pseudo-random bytes for the uploads.
enum TestFile {
  /// The size of a file in bytes.
  static func size(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.size] as? NSNumber)?.intValue ?? 0
  }

  /// Writes `bytes` pseudo-random bytes (xorshift from `seed`) to `url`; returns their SHA-256.
  static func write(_ url: URL, bytes: Int, seed: UInt64) throws -> String {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var data = Data(count: bytes)
    data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
      for index in stride(from: 0, to: bytes, by: 8) {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        withUnsafeBytes(of: state) { word in
          for offset in 0..<min(8, bytes - index) { buffer[index + offset] = word[offset] }
        }
      }
    }
    try data.write(to: url)
    return SHA256.hash(data).hex
  }

  /// The SHA-256 of a file, read in pieces.
  static func sha256(of url: URL) throws -> String {
    let reader = try FileHandle(forReadingFrom: url)
    defer { try? reader.close() }
    var hasher = SHA256()
    while let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty {
      hasher.update(chunk)
    }
    return hasher.finalize().hex
  }
}
