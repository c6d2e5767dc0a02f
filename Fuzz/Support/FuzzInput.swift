// Shared by every fuzz target (compiled into each harness).

import Dispatch
import Synchronization

/// Reads a fuzzer's bytes as the few values a harness needs, so one input drives several
/// arguments: single bytes for choices, length-prefixed pieces for strings, then the rest.
struct FuzzInput {
  private let bytes: [UInt8]
  private var position = 0

  init(_ start: UnsafeRawPointer, _ count: Int) {
    bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
  }

  var isAtEnd: Bool { position >= bytes.count }

  /// The next byte, or 0 past the end.
  mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// A piece whose length is the next byte (at most 255 bytes).
  mutating func piece() -> [UInt8] {
    let length = min(Int(byte()), bytes.count - min(position, bytes.count))
    defer { position += length }
    return Array(bytes[position..<position + length])
  }

  /// A piece read as UTF-8 (invalid sequences become U+FFFD).
  mutating func string() -> String {
    String(decoding: piece(), as: UTF8.self)
  }

  /// Everything not read yet.
  mutating func rest() -> [UInt8] {
    defer { position = bytes.count }
    return position < bytes.count ? Array(bytes[position...]) : []
  }
}

/// Runs `body` to completion from synchronous code: libFuzzer calls the harness on its own
/// thread, and the SDK's readers are async. In-memory bodies never suspend for long, so a
/// blocked thread costs little here.
func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
  let result = Mutex<Value?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    let value = await body()
    result.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  guard let value = result.withLock({ $0 }) else { fatalError("the task ended without a value") }
  return value
}

/// Fails the run with `message` when `condition` does not hold, in every build configuration.
func invariant(
  _ condition: @autoclosure () -> Bool,
  _ message: @autoclosure () -> String,
  file: StaticString = #fileID,
  line: UInt = #line
) {
  if !condition() { fatalError("invariant broken: \(message())", file: file, line: line) }
}
