/// A W3C Trace Context (<https://www.w3.org/TR/trace-context/>): the trace an exchange belongs
/// to, the span that caused it, and the vendors' `tracestate`.
///
/// Read one from an incoming request's fields to continue its trace, or let
/// ``TraceContextMiddleware`` start a new one.
///
/// ```swift
/// let incoming = TraceContext(
///   traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
///   tracestate: "congo=t61rcWkgMzE"
/// )
/// ```
public struct TraceContext: Sendable, Hashable, CustomStringConvertible {
  /// The trace's identifier: 32 lowercase hexadecimal digits, not all zero.
  public let traceID: String
  /// The identifier of the span this context points at (the parent of the next span): 16
  /// lowercase hexadecimal digits, not all zero.
  public let spanID: String
  /// The trace flags; bit 0 is "sampled".
  public let flags: UInt8
  /// The `tracestate` list, as received; `nil` when there was none (or it was not valid).
  public let traceState: String?

  /// Reads a `traceparent` field (and a `tracestate` one); `nil` when `traceparent` is not a
  /// valid W3C value.
  ///
  /// Versions after `00` are read by their first four parts, as the recommendation asks;
  /// version `ff`, identifiers of all zeros and uppercase digits are refused. A `tracestate`
  /// over 512 characters or 32 members is dropped.
  ///
  /// - Parameters:
  ///   - traceparent: the field's value, such as
  ///     `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`.
  ///   - tracestate: the `tracestate` field's value, if any.
  public init?(traceparent: String, tracestate: String? = nil) {
    let bytes = Array(traceparent.utf8)
    guard bytes.count >= 55 else { return nil }
    let version = Array(bytes[0..<2])
    guard Self.isHex(version), version != Array("ff".utf8), bytes[2] == UInt8(ascii: "-"),
      bytes[35] == UInt8(ascii: "-"), bytes[52] == UInt8(ascii: "-")
    else { return nil }
    if version == Array("00".utf8) {
      guard bytes.count == 55 else { return nil }
    } else if bytes.count > 55, bytes[55] != UInt8(ascii: "-") {
      return nil
    }
    let trace = Array(bytes[3..<35])
    let span = Array(bytes[36..<52])
    let flagDigits = Array(bytes[53..<55])
    guard Self.isHex(trace), Self.isHex(span), Self.isHex(flagDigits), !Self.isZero(trace),
      !Self.isZero(span), let flags = UInt8(String(decoding: flagDigits, as: UTF8.self), radix: 16)
    else { return nil }
    traceID = String(decoding: trace, as: UTF8.self)
    spanID = String(decoding: span, as: UTF8.self)
    self.flags = flags
    traceState = tracestate.flatMap(Self.validTraceState)
  }

  /// Makes a context from its parts.
  ///
  /// - Parameters:
  ///   - traceID: 32 lowercase hexadecimal digits, not all zero.
  ///   - spanID: 16 lowercase hexadecimal digits, not all zero.
  ///   - sampled: whether the trace is sampled (flag bit 0).
  ///   - traceState: a `tracestate` value to propagate, or `nil`.
  /// - Returns: `nil` when an identifier is not of that form.
  public init?(traceID: String, spanID: String, sampled: Bool = true, traceState: String? = nil) {
    let flags = sampled ? "01" : "00"
    self.init(traceparent: "00-\(traceID)-\(spanID)-\(flags)", tracestate: traceState)
  }

  /// Whether the trace is sampled (flag bit 0).
  public var isSampled: Bool { flags & 1 == 1 }

  /// The `traceparent` field value of this context: version `00`.
  public var traceparent: String {
    let hex = String(flags, radix: 16)
    return "00-\(traceID)-\(spanID)-\(hex.count == 1 ? "0" + hex : hex)"
  }

  /// The `traceparent` value.
  public var description: String { traceparent }

  /// This context with another span as the parent of the next one.
  func child(spanID: String) -> TraceContext {
    TraceContext(traceID: traceID, spanID: spanID, flags: flags, traceState: traceState)
  }

  private init(traceID: String, spanID: String, flags: UInt8, traceState: String?) {
    self.traceID = traceID
    self.spanID = spanID
    self.flags = flags
    self.traceState = traceState
  }

  /// A new root context with random identifiers.
  static func root<Generator: RandomNumberGenerator>(
    sampled: Bool,
    using generator: inout Generator
  ) -> TraceContext {
    TraceContext(
      traceID: randomHex(bytes: 16, using: &generator),
      spanID: randomHex(bytes: 8, using: &generator),
      flags: sampled ? 1 : 0,
      traceState: nil
    )
  }

  /// `bytes` random bytes as lowercase hexadecimal, never all zero.
  static func randomHex<Generator: RandomNumberGenerator>(
    bytes: Int,
    using generator: inout Generator
  ) -> String {
    let digits = Array("0123456789abcdef".utf8)
    while true {
      var text: [UInt8] = []
      text.reserveCapacity(bytes * 2)
      for _ in 0..<bytes {
        let byte = UInt8.random(in: 0...255, using: &generator)
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0xf)])
      }
      if !isZero(text) { return String(decoding: text, as: UTF8.self) }
    }
  }

  private static func isHex(_ bytes: [UInt8]) -> Bool {
    bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  private static func isZero(_ bytes: [UInt8]) -> Bool {
    bytes.allSatisfy { $0 == UInt8(ascii: "0") }
  }

  /// The list when it is within the recommendation's limits and has only visible ASCII, else
  /// `nil` (an invalid `tracestate` is dropped, never a reason to drop the trace).
  private static func validTraceState(_ text: String) -> String? {
    let trimmed = text.utf8.count <= 512 ? text : ""
    guard !trimmed.isEmpty,
      trimmed.utf8.allSatisfy({ (0x20...0x7e).contains($0) || $0 == 0x09 }),
      trimmed.split(separator: ",").count <= 32
    else { return nil }
    return trimmed
  }
}
