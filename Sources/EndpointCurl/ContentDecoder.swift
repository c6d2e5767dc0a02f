internal import CCurl
import EndpointKernel

/// Decodes a response body's content codings as the body arrives, layer by layer, with the
/// libraries libcurl links (zlib, libbrotlidec, libzstd), so that a body is decoded whole or
/// fails: one cut short before the end of a compressed stream, one with bytes after that end,
/// or one whose check fails.
///
/// libcurl's own decoders were measured (7.88.1) and not used: a `br` or `zstd` body cut short
/// is returned as a success, a second gzip member fails the transfer, and once decoding is on,
/// a coding libcurl does not know fails the response instead of reaching the caller as sent.
final class ContentDecoder {
  /// A content coding the client decodes.
  enum Coding: String, CaseIterable {
    case gzip
    case deflate
    case br
    case zstd

    /// The coding a `Content-Encoding` value names (`x-gzip` is `gzip`, RFC 9110, section
    /// 8.4.1.3), if the client decodes it.
    init?(named name: String) {
      if name == "x-gzip" {
        self = .gzip
      } else {
        self.init(rawValue: name)
      }
    }

    var code: Int32 {
      switch self {
      case .gzip: CCURL_CODING_GZIP
      case .deflate: CCURL_CODING_DEFLATE
      case .br: CCURL_CODING_BR
      case .zstd: CCURL_CODING_ZSTD
      }
    }

    /// Whether its library loaded.
    var isAvailable: Bool { ccurl_decoder_available(code) != 0 }
  }

  /// The most codings one response may stack (`gzip, gzip` is two); past it the response
  /// fails. The bound of libcurl (7.88 and later), which decodes inside Foundation's
  /// URLSession on Linux, so both clients decode the same stacks.
  static let maximumCodings = 5

  /// One coding's decoder and the buffer it writes to.
  private final class Layer {
    let coding: Coding
    /// Its place in the `Content-Encoding` list, from 1.
    let position: Int
    let decoder: OpaquePointer
    /// The decoded bytes of one call, handed to the next layer (or the caller) before the next.
    let scratch: UnsafeMutableRawBufferPointer
    /// Whether the end of the compressed stream was decoded, and nothing followed it yet.
    var isFinished = false
    /// Input the layer had not taken when a call stopped, taken first on the next one.
    var held: [UInt8] = []

    init?(_ coding: Coding, position: Int, scratchSize: Int) {
      guard let decoder = ccurl_decoder_new(coding.code) else { return nil }
      self.coding = coding
      self.position = position
      self.decoder = decoder
      scratch = .allocate(byteCount: scratchSize, alignment: 1)
    }

    deinit {
      ccurl_decoder_free(decoder)
      scratch.deallocate()
    }
  }

  /// The layers, outermost (the last coding listed) first.
  private let layers: [Layer]
  /// The codings as listed, for messages.
  let codings: [Coding]

  /// A decoder for `codings`, listed in the order they were applied; `nil` when a library is
  /// missing or out of memory.
  init?(codings: [Coding], scratchSize: Int = 64 * 1024) {
    var layers: [Layer] = []
    for (offset, coding) in codings.enumerated().reversed() {
      guard let layer = Layer(coding, position: offset + 1, scratchSize: scratchSize) else {
        return nil
      }
      layers.append(layer)
    }
    self.layers = layers
    self.codings = codings
  }

  /// Whether every layer decoded the end of its stream, with nothing held back.
  var isFinished: Bool { !holdsBack && layers.allSatisfy(\.isFinished) }

  /// Why the body is incomplete when it ends now, or `nil` when it is whole.
  var unfinishedReason: String? {
    guard let layer = layers.last(where: { !$0.isFinished }) ?? (holdsBack ? layers.last : nil)
    else { return nil }
    return "the \(describe(layer)) ended before the end of its compressed stream "
      + "(cut short by the server or the connection)"
  }

  /// Whether a call stopped at `deliver`'s request, leaving input or output in the layers.
  private var holdsBack = false
  /// Bytes at the start of the next calls' input that layer 0 took before a stop: the caller
  /// hands the stopped call's bytes over again, and these are not decoded twice.
  private var skip = 0

  /// How far a call to ``decode(_:deliver:)`` got.
  enum Progress: Equatable {
    /// Every byte was taken.
    case consumed
    /// `deliver` asked to stop: hand the same bytes over again (the bytes already decoded
    /// are skipped then), once the reader has caught up.
    case stopped
  }

  /// Decodes `bytes` through every layer, handing each piece of decoded output to `deliver`
  /// as it is made (never more than one buffer per layer at a time, so a body that expands a
  /// thousandfold per layer holds no more memory than a plain one). `deliver` returns `false`
  /// to stop after the piece it took; what the layers hold then is decoded first on the next
  /// call. Throws a reason when the bytes are not valid for the codings.
  func decode(
    _ bytes: UnsafeRawBufferPointer,
    deliver: (UnsafeRawBufferPointer) -> Bool
  ) throws(DecodingProblem) -> Progress {
    let skipped = min(skip, bytes.count)
    skip -= skipped
    // Taken before: the layers' own held-back work comes first once the skip is spent.
    if skip > 0 { return .consumed }
    if holdsBack {
      holdsBack = false
      for index in layers.indices.reversed() {
        let held = layers[index].held
        layers[index].held = []
        let outcome = held.withUnsafeBytes {
          (held) -> Result<(Bool, Int), DecodingProblem> in
          do throws(DecodingProblem) {
            return .success(try feed(layer: index, held, deliver: deliver))
          } catch {
            return .failure(error)
          }
        }
        guard try outcome.get().0 else {
          skip = skipped
          return .stopped
        }
      }
    }
    let rest = UnsafeRawBufferPointer(rebasing: bytes[skipped...])
    let (complete, taken) = try feed(layer: 0, rest, deliver: deliver)
    guard complete else {
      skip = skipped + taken
      return .stopped
    }
    return .consumed
  }

  /// Feeds `input` to layer `index` and what it makes to the layers below; whether it went to
  /// the end (else `deliver` asked to stop, and the layers below 0 keep what they did not
  /// take in `held`), and how many bytes of `input` the layer took.
  private func feed(
    layer index: Int,
    _ input: UnsafeRawBufferPointer,
    deliver: (UnsafeRawBufferPointer) -> Bool
  ) throws(DecodingProblem) -> (Bool, Int) {
    guard index < layers.count else { return (deliver(input), input.count) }
    let layer = layers[index]
    var offset = 0
    while true {
      var consumed = 0
      var produced = 0
      let capacity = layer.scratch.count
      let result = ccurl_decoder_run(
        layer.decoder,
        input.baseAddress.map { $0 + offset },
        input.count - offset,
        layer.scratch.baseAddress,
        capacity,
        &consumed,
        &produced
      )
      offset += consumed
      if result == CCURL_DECODE_TRAILING {
        throw DecodingProblem(reason: trailingReason(layer))
      }
      if result < 0 {
        let detail = ccurl_decoder_message(layer.decoder).map { String(cString: $0) }
        throw DecodingProblem(
          reason: "the \(describe(layer)) is corrupt (\(detail ?? "error \(result)"))")
      }
      if result == CCURL_DECODE_END {
        layer.isFinished = true
      } else if consumed > 0 {
        layer.isFinished = false
      }
      if produced > 0 {
        let piece = UnsafeRawBufferPointer(rebasing: layer.scratch[..<produced])
        guard try feed(layer: index + 1, piece, deliver: deliver).0 else {
          // Layer 0's input is the caller's, handed over again; the others' is kept.
          if index > 0 { layer.held = Array(input[offset...]) }
          holdsBack = true
          return (false, offset)
        }
      }
      // Done once the input is taken and the library has no more output waiting.
      if offset == input.count && produced < capacity { return (true, offset) }
      if consumed == 0 && produced == 0 { return (true, offset) }
    }
  }

  private func describe(_ layer: Layer) -> String {
    guard codings.count > 1 else { return "\(layer.coding.rawValue) body" }
    return "\(layer.coding.rawValue) coding (\(layer.position) of \(codings.count)) of the body"
  }

  private func trailingReason(_ layer: Layer) -> String {
    switch layer.coding {
    case .gzip:
      "the \(describe(layer)) has bytes after the end of a gzip member that do not start another"
    case .zstd:
      "the \(describe(layer)) has bytes after the end of a zstd frame that do not start another"
    case .deflate, .br:
      "the \(describe(layer)) has bytes after the end of its compressed stream"
    }
  }

  /// Why a body could not be decoded.
  struct DecodingProblem: Error {
    let reason: String
  }
}
