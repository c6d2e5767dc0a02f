// libFuzzer target: URL redaction (URLRedaction), nested URLs included.
//
// Input: two strings and a choice byte. Invariants: a password and a token planted in a URL
// carried percent-encoded in a query value of another (at a depth the choice picks, past the
// nesting limit included) never survive, whatever text surrounds them; redacting with the
// URL-safe replacement keeps a URL a URL; redacting a second time changes nothing.

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

private let password = "PlantedPw7"
private let token = "PlantedTok7"

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  let levels = Int(input.byte() % 6)
  // The planted values must come from the harness alone.
  let outer = input.string().replacing("Planted", with: "x")
  let inner = input.string().replacing("Planted", with: "x")

  var nested = "https://u:\(password)@n.example/?\(inner)&token=\(token)"
  for level in 0...levels {
    nested =
      "https://l\(level).example/p?\(level == levels ? outer : "a=1")&next="
      + PercentEncoding.encodeComponent(nested)
  }
  for text in [nested, outer, inner] {
    let (once, removed) = redact(text)
    if text == nested {
      invariant(!once.contains(password) && !once.contains(token), "planted secret kept: \(once)")
      invariant(!removed.isEmpty, "nothing removed from \(text)")
    }
    if URL(string: text) != nil {
      invariant(URL(string: once) != nil, "no longer a URL: \(text) -> \(once)")
    }
    invariant(redact(once).text == once, "a second pass changed \(once)")
  }
  return 0
}

private func redact(_ text: String) -> (text: String, removed: [String]) {
  var removed: [String] = []
  let result = URLRedaction.redacted(
    text: text, hidingUserInfo: true, replacement: "%3Credacted%3E",
    hidesQueryItem: { URLRedaction.isSensitiveQueryName($0) }, removed: &removed)
  return (result, removed)
}
