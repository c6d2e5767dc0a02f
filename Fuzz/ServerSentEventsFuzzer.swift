// libFuzzer target: HTTPBody.serverSentEvents over arbitrary bytes in arbitrary chunks.
//
// Input: a limit byte, a byte giving how many chunk-size bytes follow, those sizes, the body.
// Invariants: the events do not depend on where the chunks split, no event's data exceeds the
// limit, no field holds a line ending (data joins its lines with LF only), an id never holds
// NUL, and an event printed in its wire form parses back to itself.

@testable import EndpointCore

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  let limit = Int(input.byte()) * 4
  let sizes = input.piece()
  let bytes = input.rest()
  let chunked = events(chunkedBody(bytes, sizes: sizes), limit: limit)
  let whole = events(chunkedBody(bytes, sizes: []), limit: limit)
  invariant(chunked.events == whole.events, "chunking changed the events")
  invariant(chunked.tooLong == whole.tooLong, "chunking changed where the line limit was passed")
  for event in chunked.events {
    invariant(event.data.utf8.count <= limit, "data past the limit: \(event.data.utf8.count)")
    invariant(!event.data.utf8.contains(0x0D), "CR in data")
    invariant(!event.event.isEmpty, "an empty event type")
    for field in [event.event, event.id ?? ""] {
      invariant(!field.utf8.contains(0x0A) && !field.utf8.contains(0x0D), "a line ending kept")
    }
    invariant(event.id?.utf8.contains(0) != true, "NUL in an id")
    let wire = Array((event.description + "\n\n").utf8)
    let reparsed = events(chunkedBody(wire, sizes: []), limit: Int.max)
    var expected = event
    expected.retry = nil
    invariant(
      reparsed.events == [expected], "wire form \(event.description) gave \(reparsed.events)")
  }
  return 0
}

private func events(_ body: HTTPBody, limit: Int) -> (events: [ServerSentEvent], tooLong: Bool) {
  runBlocking { () async -> ([ServerSentEvent], Bool) in
    var events: [ServerSentEvent] = []
    do {
      for try await event in body.serverSentEvents(maximumLength: limit) { events.append(event) }
      return (events, false)
    } catch {
      invariant((error as? TransportFailure)?.kind == .lineTooLong, "unexpected error \(error)")
      return (events, true)
    }
  }
}
