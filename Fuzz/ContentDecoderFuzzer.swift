// libFuzzer target: EndpointCurl's ContentDecoder against zlib's own decoding of the same bytes.
//
// Input: a first byte that chooses the mode. Raw mode hands the rest to a one-coding decoder
// (gzip or deflate) as a body. Built mode makes a body from the input: a payload, repeated, in
// one or more gzip members or a deflate stream per layer, up to four layers stacked, then
// perhaps cut short, followed by other bytes (another member, zeros, anything) or with one byte
// changed. Either way the body reaches the decoder in chunks of sizes the input chooses, through
// a buffer of a size it chooses, its reader now and then behind (the decoder stops and the
// chunk comes again, as after a pause). Invariants: where zlib (Fuzz/Reference, linked directly)
// decodes every layer, the decoder gives exactly its bytes and calls the body finished; where
// zlib refuses a gzip layer (corrupt, cut short, bytes after a member that start no other), the
// decoder fails; a deflate body the decoder reads as raw deflate is one zlib reads so too.

import ZlibReference

/// The most decoded bytes a case may have; larger ones are skipped.
private let outputLimit = 1 << 20

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  let mode = input.byte()
  let scratchSizes = [1, 7, 512, 64 * 1024]
  let scratch = scratchSizes[Int(mode >> 4) % scratchSizes.count]
  let chunking = input.byte()
  let codings: [ContentDecoder.Coding]
  let body: [UInt8]
  if mode & 1 == 0 {
    codings = [mode & 2 == 0 ? .gzip : .deflate]
    body = input.rest()
  } else {
    (codings, body) = built(&input, layers: 1 + Int(mode >> 1) % 4)
  }
  check(body, codings: codings, scratch: scratch, chunking: chunking)
  return 0
}

/// A body made from the input: `layers` codings, each gzip (in one to three members) or deflate.
private func built(
  _ input: inout FuzzInput,
  layers: Int
) -> ([ContentDecoder.Coding], [UInt8]) {
  let shape = input.byte()
  let payload = input.piece()
  var data = [UInt8]()
  for _ in 0...Int(input.byte() % 64) { data += payload }
  var codings: [ContentDecoder.Coding] = []
  for layer in 0..<layers {
    let gzip = (shape >> layer) & 1 == 0
    codings.append(gzip ? .gzip : .deflate)
    if gzip {
      // Members split where the input says, each compressed by itself.
      let members = 1 + Int(input.byte() % 3)
      var encoded = [UInt8]()
      var rest = data[...]
      for member in 0..<members {
        let take = member == members - 1 ? rest.count : min(rest.count, Int(input.byte()))
        encoded += compress(Array(rest.prefix(take)), gzip: true, level: Int32(input.byte() % 10))
        rest = rest.dropFirst(take)
      }
      data = encoded
    } else {
      data = compress(data, gzip: false, level: Int32(input.byte() % 10))
    }
  }
  switch input.byte() % 6 {
  case 1: data.removeLast(min(data.count, 1 + Int(input.byte())))
  case 2: data += input.piece()
  case 3: data += [UInt8](repeating: 0, count: 1 + Int(input.byte() % 16))
  case 4:
    if !data.isEmpty {
      let position = Int(input.byte()) * data.count / 256
      data[position] ^= max(1, input.byte())
    }
  case 5: data += compress(input.piece(), gzip: true, level: 6)
  default: break
  }
  return (codings, data)
}

private func compress(_ data: [UInt8], gzip: Bool, level: Int32) -> [UInt8] {
  var output = [UInt8](repeating: 0, count: data.count + data.count / 10 + 64)
  let written = data.withUnsafeBytes { source in
    output.withUnsafeMutableBytes { out in
      reference_compress(
        gzip ? 1 : 0, level, source.baseAddress, source.count, out.baseAddress, out.count)
    }
  }
  invariant(written > 0, "zlib could not compress \(data.count) bytes")
  return Array(output.prefix(written))
}

/// What zlib makes of a body: its decoded bytes, a refusal, or nothing to compare (the output
/// would pass `outputLimit`).
private enum Reference {
  case decoded([UInt8])
  case refused
  case skipped
}

/// zlib's decoding of `body` through `codings`, the last listed first; a deflate layer is read
/// as raw deflate where its bit in `raw` is set.
private func reference(_ body: [UInt8], codings: [ContentDecoder.Coding], raw: Int) -> Reference {
  var data = body
  var output = [UInt8](repeating: 0, count: outputLimit)
  for (index, coding) in codings.enumerated().reversed() {
    let gzip: Int32 = coding == .gzip ? 1 : 0
    let rawBit: Int32 = (raw >> index) & 1 == 1 ? 1 : 0
    let length = data.withUnsafeBytes { source in
      output.withUnsafeMutableBytes { out in
        reference_decode(
          gzip, rawBit, source.baseAddress, source.count, out.baseAddress, out.count)
      }
    }
    if length == -2 { return .skipped }
    if length < 0 { return .refused }
    data = Array(output.prefix(length))
  }
  return .decoded(data)
}

private func check(
  _ body: [UInt8],
  codings: [ContentDecoder.Coding],
  scratch: Int,
  chunking: UInt8
) {
  guard let decoder = ContentDecoder(codings: codings, scratchSize: scratch) else {
    invariant(false, "no decoder for \(codings)")
    return
  }
  // The decoder's outcome: its bytes, or nil when it failed; skipped past the output limit.
  var decoded = [UInt8]()
  var failed = false
  var tooLarge = false
  // Every so many pieces the reader is behind (the input's top bits say how often): the
  // decoder stops, and the same chunk comes again, as libcurl hands it over after a pause.
  let pauseEvery = Int(chunking >> 6)
  var pieces = 0
  body.withUnsafeBytes { all in
    var offset = 0
    var step = 0
    repeat {
      // Chunk sizes cycle through 1 ... 255 as the input's byte says (0: one chunk).
      let size = chunking == 0 ? all.count : 1 + (Int(chunking) * (step + 1)) % 255
      let end = min(all.count, offset + size)
      step += 1
      let chunk = UnsafeRawBufferPointer(rebasing: all[offset..<end])
      var progress = ContentDecoder.Progress.stopped
      while progress == .stopped {
        do {
          progress = try decoder.decode(chunk) { piece in
            guard decoded.count + piece.count <= outputLimit else {
              tooLarge = true
              return false
            }
            decoded += piece
            pieces += 1
            return pauseEvery == 0 || pieces % (pauseEvery + 1) != 0
          }
        } catch {
          failed = true
          return
        }
        if tooLarge { return }
      }
      offset = end
    } while offset < all.count
  }
  if tooLarge { return }
  let whole = !failed && decoder.unfinishedReason == nil
  invariant(!whole || decoder.isFinished, "a whole body that is not finished")
  let deflateLayers = codings.indices.filter { codings[$0] == .deflate }
  switch reference(body, codings: codings, raw: 0) {
  case .skipped: return
  case .decoded(let expected):
    invariant(whole, "zlib decodes \(codings) (\(body.count) bytes); the decoder failed")
    invariant(decoded == expected, "decoded \(decoded.count) bytes, zlib \(expected.count)")
  case .refused:
    guard whole else { return }
    // Only a deflate layer read as raw deflate may succeed where zlib's wrapper refuses.
    invariant(!deflateLayers.isEmpty, "zlib refuses \(codings) (\(body.count) bytes); decoded")
    var matches = false
    for raw in 1..<(1 << codings.count)
    where deflateLayers.contains(where: { (raw >> $0) & 1 == 1 }) {
      if case .decoded(let expected) = reference(body, codings: codings, raw: raw),
        expected == decoded
      {
        matches = true
      }
    }
    invariant(matches, "decoded \(codings) as no reading of zlib's does")
  }
}
