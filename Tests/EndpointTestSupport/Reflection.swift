import Testing

/// What `dump(_:)` writes of `value`, then every label and value a walk of its mirror meets,
/// each as `String(describing:)` shows it: what debuggers, `#expect` failure messages and
/// loggers that walk a value's properties show of it.
public func reflectedText(_ value: Any, maxDepth: Int = 12) -> String {
  var out = ""
  dump(value, to: &out, maxDepth: maxDepth)
  func walk(_ value: Any, depth: Int) {
    out += "\n" + String(describing: value)
    guard depth < maxDepth else { return }
    for child in Mirror(reflecting: value).children {
      out += "\n" + (child.label ?? "-") + ":"
      walk(child.value, depth: depth + 1)
    }
  }
  walk(value, depth: 0)
  return out
}

/// Records a failure naming `what` and showing `text` when `text` holds the word `canary`, which
/// every secret in the secret sweeps contains.
public func expectNoCanary(
  in text: String,
  _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(!text.contains("canary"), "\(what) leaks: \(text)", sourceLocation: sourceLocation)
}
