// libFuzzer target: the OpenAPI generator's YAML reader (libyaml, opened at run time, and the
// conversion of its events into the document tree).
//
// Input: a mode byte, then the rest.
// - Even mode: the rest is read as a YAML document. Invariants: it never crashes or hangs; a
//   failure is a `notYAML` failure whose message names the document and says where; a tree it
//   returns nests no deeper than the reader's limit.
// - Odd mode: the rest drives a random tree (objects, arrays, strings of any Unicode scalars,
//   numbers, booleans, nulls), written here as flow-style YAML with double-quoted strings.
//   Invariant: reading it back gives the same tree.

import Foundation

@testable import EndpointOpenAPI

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  if input.byte() % 2 == 0 {
    readArbitraryBytes(input.rest())
  } else {
    var builder = TreeBuilder(input: input)
    let tree = builder.node(depth: 0)
    let text = yaml(tree)
    do {
      let read = try YAMLReader.read(Data(text.utf8), named: "fuzz.yaml")
      invariant(read == tree, "read back \(read) from \(text), not \(tree)")
    } catch {
      invariant(false, "\(error) reading back \(text)")
    }
  }
  return 0
}

private func readArbitraryBytes(_ bytes: [UInt8]) {
  do {
    let tree = try YAMLReader.read(Data(bytes), named: "fuzz.yaml")
    invariant(depth(of: tree) <= YAMLReader.depthLimit + 1, "a tree deeper than the limit")
  } catch {
    invariant(error.kind == .notYAML, "failure of kind \(error.kind): \(error)")
    invariant(error.description.contains("fuzz.yaml"), "a failure that names no document: \(error)")
  }
}

private func depth(of node: JSONNode) -> Int {
  switch node {
  case .object(let object): 1 + (object.values.map(depth(of:)).max() ?? 0)
  case .array(let array): 1 + (array.map(depth(of:)).max() ?? 0)
  default: 0
  }
}

/// A random tree from the fuzzer's bytes, bounded in depth and width.
private struct TreeBuilder {
  var input: FuzzInput

  mutating func node(depth: Int) -> JSONNode {
    let choice = input.byte() % (depth >= 6 ? 4 : 6)
    switch choice {
    case 0: return .string(string())
    case 1: return .number(number())
    case 2: return input.byte() % 3 == 0 ? .null : .bool(input.byte() % 2 == 0)
    case 3: return .string(string())
    case 4:
      let count = Int(input.byte() % 5)
      return .array((0..<count).map { _ in node(depth: depth + 1) })
    default:
      let count = Int(input.byte() % 5)
      var object: [String: JSONNode] = [:]
      for _ in 0..<count { object[string()] = node(depth: depth + 1) }
      return .object(object)
    }
  }

  /// Any Unicode scalars, control characters and quotes included.
  mutating func string() -> String {
    var scalars = String.UnicodeScalarView()
    let length = Int(input.byte() % 12)
    for _ in 0..<length {
      let high = UInt32(input.byte())
      let low = UInt32(input.byte())
      let value = high % 4 == 0 ? low : (high << 8 | low) % 0x11_0000
      if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
    }
    return String(scalars)
  }

  /// Integers and decimals that print exactly, negative ones too.
  mutating func number() -> Double {
    let whole = Double(Int16(bitPattern: UInt16(input.byte()) << 8 | UInt16(input.byte())))
    let fraction = Double(input.byte() % 8) / 8
    return whole + (whole < 0 ? -fraction : fraction)
  }
}

/// `node` as flow-style YAML: mappings in braces, sequences in brackets, strings double-quoted.
private func yaml(_ node: JSONNode) -> String {
  switch node {
  case .object(let object):
    "{"
      + object.sorted { $0.key < $1.key }.map { quoted($0.key) + ": " + yaml($0.value) }
      .joined(separator: ", ") + "}"
  case .array(let array): "[" + array.map(yaml).joined(separator: ", ") + "]"
  case .string(let string): quoted(string)
  case .number(let number):
    number == number.rounded() ? String(Int(number)) : String(number)
  case .bool(let bool): bool ? "true" : "false"
  case .null: "null"
  }
}

/// A YAML double-quoted scalar: every character that is not printable ASCII is escaped.
private func quoted(_ string: String) -> String {
  var text = "\""
  for scalar in string.unicodeScalars {
    switch scalar {
    case "\"": text += "\\\""
    case "\\": text += "\\\\"
    case " "..."~": text.unicodeScalars.append(scalar)
    default:
      let hex = String(scalar.value, radix: 16, uppercase: true)
      text += "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
    }
  }
  return text + "\""
}
