import Foundation

/// A ``StubClient`` received a request that no rule answers.
///
/// Its description shows the request (credentials redacted), and for the nearest rules which
/// parts matched and which did not, then a rule that would match:
///
/// ```text
/// No stub rule matches GET https://api.example.com/v1/rates?currency=EUR
///   Accept: application/json
///   Authorization: <redacted>
///   body: <empty>
/// Nearest rules:
///   #1 GET https://api.example.com/v1/rates?currency=USD
///      ✓ method ✓ origin ✓ path ✗ query: expected currency=USD, got currency=EUR
/// A rule that would match:
///   stub.on(.get, "/rates").query(["currency": "EUR"]).reply(status: 200)
/// ```
public struct NoMatchingStub: Error, Sendable, CustomStringConvertible {
  /// A rule that came close, with the result of each of its checks.
  public struct NearRule: Sendable, Hashable, CustomStringConvertible {
    /// The rule, as `#n METHOD pattern …`.
    public let rule: String
    /// Every check of the rule, passed or failed, in order.
    public let checks: [MatchCheck]

    /// The checks that failed.
    public var mismatches: [MatchCheck] { checks.filter { !$0.passed } }

    /// The rule on one line and its checks on the next.
    public var description: String {
      "\(rule)\n     " + checks.map(\.description).joined(separator: " ")
    }
  }

  /// The request that matched nothing; its body, if any, is in memory.
  public let request: HTTPRequest
  /// The request's complete body.
  public let body: Data
  /// Up to three rules, the closest first (fewest failed checks).
  public let nearestRules: [NearRule]
  /// Swift code for a rule that would match this request.
  public let suggestedRule: String

  init(
    request: HTTPRequest,
    body: Data,
    rules: [(StubStore.Rule, [MatchCheck])],
    baseURL: URL?
  ) {
    self.request = request
    self.body = body
    let near = rules.map { rule, checks -> NearRule in
      var checks = checks
      if checks.allSatisfy(\.passed), rule.isUsedUp {
        checks.append(MatchCheck(part: "times", passed: false, actual: "used up, \(rule.usage)"))
      }
      return NearRule(rule: rule.label, checks: checks)
    }
    nearestRules = Array(
      near.enumerated()
        .sorted {
          ($0.element.mismatches.count, $0.offset) < ($1.element.mismatches.count, $1.offset)
        }
        .prefix(3)
        .map(\.element)
    )
    suggestedRule = NoMatchingStub.suggestion(for: request, body: body, baseURL: baseURL)
  }

  var requestLine: String {
    request.description
  }

  /// The request, the nearest rules with their checks, and a rule that would match.
  public var description: String {
    var lines = ["No stub rule matches \(requestLine)"]
    for field in request.headerFields.redacted() {
      lines.append("  \(field)")
    }
    let preview = Redaction.standard.preview(
      of: body, contentType: request.headerFields["Content-Type"], limit: 300)
    lines.append("  body: \(preview)")
    if nearestRules.isEmpty {
      lines.append("No rules are set up.")
    } else {
      lines.append("Nearest rules:")
      lines += nearestRules.map { "  \($0)" }
    }
    lines.append("A rule that would match:")
    lines.append("  " + suggestedRule)
    return lines.joined(separator: "\n")
  }

  static func suggestion(for request: HTTPRequest, body: Data, baseURL: URL?) -> String {
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
    var path = components?.percentEncodedPath ?? "/"
    if path.isEmpty { path = "/" }
    if let baseURL,
      PathPattern.origin(of: baseURL) == PathPattern.origin(of: request.url),
      let basePath = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)?.percentEncodedPath
    {
      var prefix = basePath
      while prefix.hasSuffix("/") { prefix.removeLast() }
      if path.hasPrefix(prefix + "/") || path == prefix {
        path = String(path.dropFirst(prefix.count))
        if path.isEmpty { path = "/" }
      }
    } else if baseURL != nil {
      path = (PathPattern.origin(of: request.url) ?? "") + path
    }
    var code = "stub.on(\(methodLiteral(request.method)), \(swiftString(path)))"
    // Query credentials stay out of the suggestion; the query condition matches a subset anyway.
    let items = (components?.queryItems ?? []).filter {
      !URLRedaction.isSensitiveQueryName($0.name)
    }
    if !items.isEmpty {
      let pairs = items.map {
        "\(swiftString($0.name)): \(swiftString(URLRedaction.redacted(value: $0.value ?? "")))"
      }
      code += ".query([\(pairs.joined(separator: ", "))])"
    }
    // A body holding a secret stays out of the suggestion, as query credentials do: a rule
    // without a body condition still matches.
    let contentType = request.headerFields["Content-Type"]
    if !body.isEmpty, Redaction.standard.apply(toBody: body, contentType: contentType) == body {
      if let tree = JSONTree(parsing: body), tree.compact.count <= 200 {
        code += ".body(json: \(swiftString(tree.compact)))"
      } else if let text = String(validating: body, as: UTF8.self), text.count <= 200 {
        code += ".body(text: \(swiftString(text)))"
      }
    }
    return code + ".reply(status: 200)"
  }

  private static func methodLiteral(_ method: HTTPMethod) -> String {
    let known: [HTTPMethod] = [
      .get, .head, .post, .put, .patch, .delete, .options, .trace, .connect,
    ]
    if known.contains(method) { return "." + method.rawValue.lowercased() }
    return swiftString(method.rawValue)
  }

  /// A Swift string literal, raw (`#"…"#`) when the text has quotes or backslashes.
  static func swiftString(_ text: String) -> String {
    if text.contains("\"") || text.contains("\\") { return "#\"" + text + "\"#" }
    return "\"" + text + "\""
  }
}

extension NoMatchingStub: CustomReflectable {
  /// The request (its mirror hides its secrets), the body as the description previews it, the
  /// nearest rules and the suggested rule, for `dump(_:)` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "request": request,
        "body": Redaction.standard.preview(
          of: body, contentType: request.headerFields["Content-Type"]),
        "nearestRules": nearestRules,
        "suggestedRule": suggestedRule,
      ],
      displayStyle: .struct)
  }
}
