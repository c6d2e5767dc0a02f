internal import CCurl

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Decodes a `gzip` or `deflate` response body as it arrives, with the system's zlib, so that a
/// body cut short before the end of its compressed stream is an error rather than a short body.
///
/// libcurl's own decoding returns whatever arrived when a server closes the connection early on
/// a body without a declared length: the client decodes instead and checks that the stream
/// ended.
final class ContentDecoder {
  /// The `Accept-Encoding` the client sends when the caller sets none.
  static let acceptEncoding = "gzip, deflate"

  /// Whether zlib loaded, so the client can decode by itself.
  static var isAvailable: Bool { ccurl_inflate_available() != 0 }

  private let inflater: OpaquePointer
  /// The coding, as named in the response (`gzip` or `deflate`).
  let coding: String
  /// Whether the end of the compressed stream was decoded.
  private(set) var isFinished = false
  private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

  /// A decoder for the response's `Content-Encoding` values, or `nil` when they are not exactly
  /// one of `gzip`, `x-gzip` and `deflate` (the body is then handed over as it came).
  init?(contentEncoding values: [String]) {
    let codings = values.flatMap { $0.split(separator: ",") }
      .map { coding in
        String(
          coding.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }
            .reversed()
        ).lowercased()
      }
      .filter { !$0.isEmpty && $0 != "identity" }
    guard codings.count == 1, let coding = codings.first,
      ["gzip", "x-gzip", "deflate"].contains(coding)
    else { return nil }
    guard let inflater = ccurl_inflater_new(coding == "deflate" ? 0 : 1) else { return nil }
    self.inflater = inflater
    self.coding = coding
  }

  deinit {
    ccurl_inflater_free(inflater)
  }

  /// The decoded bytes of `bytes`; throws a reason when they are not a valid stream of the coding.
  func decode(_ bytes: UnsafeRawBufferPointer) throws(DecodingProblem) -> Data {
    var output = Data()
    var offset = 0
    while offset < bytes.count || !isFinished {
      if isFinished {
        // Bytes after the end of the compressed stream: ignored, as browsers and libcurl do.
        break
      }
      var consumed = 0
      var produced = 0
      let result = scratch.withUnsafeMutableBytes { out in
        ccurl_inflater_run(
          inflater,
          bytes.baseAddress.map { $0 + offset },
          bytes.count - offset,
          out.baseAddress,
          out.count,
          &consumed,
          &produced
        )
      }
      if result < 0 {
        throw DecodingProblem(reason: "the \(coding) body is corrupt (zlib error \(result))")
      }
      output.append(contentsOf: scratch[0..<produced])
      offset += consumed
      if result == 1 { isFinished = true }
      // No progress and the output not full: zlib wants more input.
      if consumed == 0 && produced < scratch.count { break }
    }
    return output
  }

  /// Why a body could not be decoded.
  struct DecodingProblem: Error {
    let reason: String
  }
}
