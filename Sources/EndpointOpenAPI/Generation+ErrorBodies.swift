/// An operation's documented error responses to an enum that decodes the body of the
/// `UnexpectedResponse` its endpoint throws.
extension Generation {
  struct ErrorBody {
    /// `404`, `4XX`, `5XX` or `default`.
    var status: String
    var caseName: String
    /// `nil` for a response without a JSON body: its status decodes to no case.
    var type: TypeRef?
  }

  /// The bodies of the 4xx, 5xx and `default` responses: exact codes first, then the ranges,
  /// then `default`, the order a status is matched in. Empty when none has a JSON body.
  mutating func errorBodies(
    _ responses: [String: JSONNode], at responsesPointer: String, functionType: String,
    scope: inout NestedScope?
  ) -> [ErrorBody] {
    func rank(_ key: String) -> Int? {
      let status = key.uppercased()
      if status == "DEFAULT" { return 2 }
      if status == "4XX" || status == "5XX" { return 1 }
      guard status.count == 3, let code = Int(status), (400..<600).contains(code) else {
        return nil
      }
      return 0
    }
    let keys = responses.keys.compactMap { key in rank(key).map { (rank: $0, key: key) } }
      .sorted { ($0.rank, $0.key) < ($1.rank, $1.key) }.map(\.key)
    var bodies: [ErrorBody] = []
    for key in keys {
      let status = key.uppercased() == "DEFAULT" ? "default" : key.uppercased()
      let pointer = JSONPointer.appending(key, to: responsesPointer)
      do {
        guard let response = responses[key] else { continue }
        let (node, nodePointer) = try responseNode(response, at: pointer)
        guard let content = node["content"]?.object, !content.isEmpty else {
          bodies.append(ErrorBody(status: status, caseName: "", type: nil))
          continue
        }
        let (schema, schemaPointer) = try jsonSchema(
          in: node, at: nodePointer, what: "an error body")
        let suffix = status == "default" ? "Default" : status
        let resolved = try typeRef(
          schema, at: schemaPointer, suggested: functionType + "Error" + suffix, scope: &scope)
        let caseName =
          switch status {
          case "default": "other"
          case "4XX": "clientError"
          case "5XX": "serverError"
          default: "status" + status
          }
        bodies.append(
          ErrorBody(status: status, caseName: caseName, type: dated(resolved.type, schema)))
      } catch {
        warn(error, "the status has no case in the error body enum")
        bodies.append(ErrorBody(status: status, caseName: "", type: nil))
      }
    }
    return bodies.contains { $0.type != nil } ? bodies : []
  }

  /// The doc comment lines that say which status carries which body.
  static func errorBodyDoc(_ bodies: [ErrorBody], enumName: String) -> [String] {
    guard !bodies.isEmpty else { return [] }
    let list = bodies.compactMap { body in
      let status = body.status == "default" ? "any other status" : "`\(body.status)`"
      return body.type.map { "\(status) a `\($0.code)`" }
    }
    return ["///"]
      + docLines(
        "Error bodies, decoded from the `UnexpectedResponse` the call throws by "
          + "`\(enumName)(_:)`: \(list.joined(separator: ", ")).", indent: 2)
  }

  /// The enum of an operation's error bodies, with an initialiser that decodes the body the
  /// status of an `UnexpectedResponse` documents.
  func errorBodyLines(_ bodies: [ErrorBody], enumName: String, function: String) -> [String] {
    let documented = options.accessLevel == .public
    var lines = [
      "/// The error bodies `\(function)` documents, by status.",
      "\(access)enum \(enumName): Sendable, Hashable {",
    ]
    for body in bodies {
      guard let type = body.type else { continue }
      if documented {
        let status = body.status == "default" ? "Any other status" : "A `\(body.status)`"
        lines.append("  /// \(status).")
      }
      lines.append("  case \(body.caseName)(\(type.code))")
    }
    lines += [
      "",
      "  /// The body of a response `\(function)` does not accept, decoded as its status",
      "  /// documents; `nil` when the document describes none for the status.",
      "  ///",
      "  /// - Throws: `ParsingFailure` when the body is not what the document describes.",
      "  \(access)init?(_ error: UnexpectedResponse) throws(ParsingFailure) {",
      "    switch error.status {",
    ]
    for body in bodies {
      let pattern =
        switch body.status {
        case "default": "default"
        case "4XX": "case 400..<500"
        case "5XX": "case 500..<600"
        default: "case \(body.status)"
        }
      // A date-time body is read by the wrapper, whatever the decoder's date strategy.
      let decoded =
        if let type = body.type, let wrapper = type.codingWrapper {
          "error.decodeBody(as: \(wrapper)<\(type.code)>.self).wrappedValue"
        } else {
          "error.decodeBody()"
        }
      lines += [
        "    \(pattern):",
        body.type == nil ? "      return nil" : "      self = try .\(body.caseName)(\(decoded))",
      ]
    }
    if bodies.last?.status != "default" {
      lines += ["    default:", "      return nil"]
    }
    lines += ["    }", "  }", "}"]
    return lines
  }
}
