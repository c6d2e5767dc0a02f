// Shared by every fuzz target (compiled into each harness).

import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A streamed body that hands over `bytes` in chunks whose sizes come from `sizes` (cycled; a
/// size of 0 gives an empty chunk), so readers meet every boundary a network could give them.
func chunkedBody(_ bytes: [UInt8], sizes: [UInt8]) -> HTTPBody {
  var chunks: [Data] = []
  var start = 0
  var turn = 0
  while start < bytes.count {
    let size = sizes.isEmpty ? bytes.count : Int(sizes[turn % sizes.count]) % 17
    turn += 1
    let end = min(bytes.count, start + size)
    chunks.append(Data(bytes[start..<end]))
    start = end
    if turn > bytes.count + sizes.count { break }
  }
  if start < bytes.count { chunks.append(Data(bytes[start...])) }
  return HTTPBody(Chunks(chunks: chunks))
}

/// A fixed list of chunks as an asynchronous sequence.
struct Chunks: AsyncSequence, Sendable {
  typealias Element = Data

  let chunks: [Data]

  func makeAsyncIterator() -> Iterator {
    Iterator(chunks: chunks[...])
  }

  struct Iterator: AsyncIteratorProtocol {
    var chunks: ArraySlice<Data>

    mutating func next() async -> Data? {
      chunks.popFirst()
    }
  }
}
