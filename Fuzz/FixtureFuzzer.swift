// libFuzzer target: fixture decoding (EndpointTesting's Fixture, versioned JSON and HAR 1.2).
//
// Input: a first byte choosing the format, then the file's bytes. Invariants: decoding either
// fails with InvalidFixture or gives a fixture whose encoding decodes to the same fixture
// (JSON and HAR both), and every header field it holds is one HTTPFields accepts.

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
  let again = try? Fixture(data: fixture.encoded())
  invariant(
    again?.interactions == fixture.interactions,
    "the JSON encoding did not round-trip: \(fixture.interactions) became \(String(describing: again?.interactions))"
  )
  let viaHAR = try? Fixture(har: fixture.har())
  invariant(viaHAR != nil, "the HAR encoding did not decode")
  return 0
}
