import EndpointCore

/// Strict parsing of a response's `Content-Length` (RFC 9110, section 8.6), shared by the
/// transports.
///
/// Only ASCII digits make a length: no sign, no hexadecimal, no space inside the number, nothing
/// past `Int64.max`. Repeated fields, or one field holding a list (`5, 5`), are accepted only
/// when every value is the same number; different values mean the body's end is unknown, and the
/// response must be refused (section 8.6: a recipient must treat it as an unrecoverable error).
package enum ContentLength {
  /// The length one field value declares (a comma-separated list allowed), or `nil` when the
  /// value is not a valid length or its list holds different numbers.
  @inlinable
  package static func parse(_ value: some StringProtocol) -> Int64? {
    parse(value, maximumDigits: .max)
  }

  /// ``parse(_:)`` with at most `maximumDigits` digits in each number, leading zeros included
  /// (the curl client takes 18, which always fit in 63 bits).
  // Inlinable: specialized for `String` in the curl client, which reads every response's length.
  @inlinable
  package static func parse(_ value: some StringProtocol, maximumDigits: Int) -> Int64? {
    var length: Int64?
    var number: Int64 = 0
    var digits = 0
    var endedNumber = false
    // One pass over the bytes: optional spaces and tabs around each element.
    func close() -> Bool {
      guard digits > 0 else { return false }
      if let length, length != number { return false }
      length = number
      number = 0
      digits = 0
      endedNumber = false
      return true
    }
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if digits >= maximumDigits { return nil }
        if endedNumber { return nil }  // "1 0"
        let (times, overflowTimes) = number.multipliedReportingOverflow(by: 10)
        let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
        if overflowTimes || overflowSum { return nil }
        number = sum
        digits += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"):
        if digits > 0 { endedNumber = true }
      case UInt8(ascii: ","):
        guard close() else { return nil }
      default:
        return nil
      }
    }
    guard close() else { return nil }
    return length
  }

  /// The length that the values of every `Content-Length` field of a response declare together,
  /// or `nil` when any of them is invalid or they differ. An empty list gives `nil`.
  package static func parse(fields values: some Sequence<some StringProtocol>) -> Int64? {
    var length: Int64?
    for value in values {
      guard let parsed = parse(value) else { return nil }
      if let length, length != parsed { return nil }
      length = parsed
    }
    return length
  }
}
