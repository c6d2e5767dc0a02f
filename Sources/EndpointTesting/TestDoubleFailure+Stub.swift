import Foundation

extension TestDoubleFailure {
  /// A request no rule answers, with up to three of `rules` (each with its checks), the closest
  /// first, and a rule that would match.
  static func noMatchingStub(
    request: HTTPRequest,
    body: Data,
    rules: [(StubStore.Rule, [MatchCheck])],
    baseURL: URL?
  ) -> TestDoubleFailure {
    let near = rules.map { rule, checks -> NearRule in
      var checks = checks
      if checks.allSatisfy(\.passed), rule.isUsedUp {
        checks.append(MatchCheck(part: "times", passed: false, actual: "used up, \(rule.usage)"))
      }
      return NearRule(rule: rule.label, checks: checks)
    }
    let nearest = near.enumerated()
      .sorted {
        ($0.element.mismatches.count, $0.offset) < ($1.element.mismatches.count, $1.offset)
      }
      .prefix(3)
      .map(\.element.description)
    return TestDoubleFailure(
      .noMatchingStub,
      method: request.method,
      url: request.url,
      request: request,
      body: body,
      nearestRules: Array(nearest),
      suggestedRule: suggestion(for: request, body: body, baseURL: baseURL))
  }

  /// A rule that cannot work; `rule` names it when the problem belongs to one.
  static func invalidStub(_ reason: String, rule: String? = nil) -> TestDoubleFailure {
    TestDoubleFailure(.invalidStub, reason: reason, rule: rule)
  }

  /// What ``StubClient/verify()`` found wrong, with every request received.
  static func verificationFailed(
    problems: [String], requests: [RecordedRequest]
  ) -> TestDoubleFailure {
    TestDoubleFailure(.verificationFailed, problems: problems, requests: requests)
  }

  /// The request as `METHOD URL`, credentials redacted.
  var requestLine: String {
    request?.description ?? ""
  }

  /// The request, the nearest rules with their checks, and a rule that would match.
  var noMatchingStubDescription: String {
    var lines = ["No stub rule matches \(requestLine)"]
    let fields = request?.headerFields ?? HTTPFields()
    for field in fields.redacted() {
      lines.append("  \(field)")
    }
    let preview = Redaction.standard.preview(
      of: body ?? Data(), contentType: fields["Content-Type"], limit: 300)
    lines.append("  body: \(preview)")
    if nearestRules.isEmpty {
      lines.append("No rules are set up.")
    } else {
      lines.append("Nearest rules:")
      lines += nearestRules.map { "  \($0)" }
    }
    lines.append("A rule that would match:")
    lines.append("  " + (suggestedRule ?? ""))
    return lines.joined(separator: "\n")
  }

  /// A sentence naming the rule and the problem.
  var invalidStubDescription: String {
    if let rule { return "Invalid stub rule \(rule): \(reason ?? "")" }
    return "Invalid stub: \(reason ?? "")"
  }

  /// The problems, then the requests received.
  var verificationFailedDescription: String {
    var lines = ["Stub verification failed:"]
    lines += problems.map { "  - \($0)" }
    lines.append(requests.isEmpty ? "Requests received: none" : "Requests received:")
    lines += requests.map { "  \($0)" }
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
      !Redaction.isSensitiveQueryName($0.name)
    }
    if !items.isEmpty {
      let pairs = items.map {
        "\(swiftString($0.name)): \(swiftString(Redaction.standard.apply(toText: $0.value ?? "")))"
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
