// libFuzzer target: fixture decoding (EndpointTesting's Fixture, versioned JSON and HAR 1.2).
//
// Input: a first byte choosing the format, then the file's bytes. Invariants: decoding either
// fails with an invalidFixture TestDoubleFailure or gives a fixture whose JSON encoding decodes
// to the same interactions (JSON bodies once normalised) and whose HAR encoding decodes, and
// every header field it holds is one HTTPFields accepts.

import Foundation

@testable import EndpointTesting

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  let har = input.byte() & 1 == 1
  let data = Data(input.rest())
  let decoded = har ? try? Fixture(har: data) : try? Fixture(data: data)
  guard let fixture = decoded else { return 0 }
  for interaction in fixture.interactions {
    let fields =
      Array(interaction.request.headerFields)
      + Array(interaction.response?.headerFields ?? HTTPFields())
    for field in fields {
      invariant(
        (try? HTTPFields.Field(name: field.name, value: field.value)) != nil, "field \(field)")
    }
  }
  // A JSON body is kept as JSON with sorted keys, so its bytes may change once; after that the
  // encoding must give back exactly what it was given.
  guard let once = try? Fixture(data: fixture.encoded()) else {
    invariant(false, "the JSON encoding of \(fixture.interactions) did not decode")
    return 0
  }
  let twice = try? Fixture(data: once.encoded())
  invariant(
    twice?.interactions == once.interactions,
    "the JSON encoding did not round-trip: \(once.interactions) became "
      + "\(String(describing: twice?.interactions))")
  for (decoded, reencoded) in zip(fixture.interactions, once.interactions) {
    invariant(decoded.request.url == reencoded.request.url, "a URL changed")
    invariant(decoded.response?.status == reencoded.response?.status, "a status changed")
    invariant(decoded.error == reencoded.error, "an error changed")
  }
  let viaHAR = try? Fixture(har: fixture.har())
  invariant(viaHAR != nil, "the HAR encoding did not decode")
  return 0
}
