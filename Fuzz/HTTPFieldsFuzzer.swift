// libFuzzer target: HTTPFields construction and validation.
//
// Input: pairs of length-prefixed name and value pieces. Invariants: a field is accepted
// exactly when its name is an RFC 9110 token and its value holds no control character but
// HTAB (checked here byte by byte), so the printed list has one line per field; lookups ignore
// ASCII case; set leaves one field of the name, remove none.

import EndpointPrimitives

@testable import EndpointCore

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  var fields = HTTPFields()
  var accepted: [(String, String)] = []
  while !input.isAtEnd {
    let name = input.string()
    let value = input.string()
    let valid = isToken(name) && value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    do {
      try fields.append(value, for: name)
      invariant(valid, "accepted \(String(reflecting: name)): \(String(reflecting: value))")
      accepted.append((name, value))
    } catch {
      invariant(!valid, "refused a valid field: \(error)")
      invariant(!error.description.isEmpty, "an empty error description")
    }
  }
  invariant(fields.count == accepted.count, "field count")
  if !fields.isEmpty {
    let printed = fields.description.split(separator: "\n", omittingEmptySubsequences: false)
    invariant(printed.count == fields.count, "a field printed over several lines")
  }
  guard let (name, value) = accepted.first else { return 0 }
  invariant(
    fields.contains(name.lowercased()) && fields.contains(name.uppercased()), "case matters")
  let same = accepted.filter { HTTPToken.namesEqual($0.0, name) }.map(\.1)
  invariant(fields.values(for: name) == same, "values(for:)")
  var changed = fields
  try? changed.set(value + "x", for: name)
  invariant(changed.values(for: name) == [value + "x"], "set left other fields of the name")
  changed.remove(name)
  invariant(!changed.contains(name), "remove left a field")
  let rebuilt = try? HTTPFields(accepted)
  invariant(rebuilt == fields, "init(_:) differs from append")
  return 0
}

private func isToken(_ name: String) -> Bool {
  let tchar = Set("!#$%&'*+-.^_`|~".utf8)
  return !name.utf8.isEmpty
    && name.utf8.allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        || tchar.contains(byte)
    }
}
