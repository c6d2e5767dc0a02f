import Foundation

/// Conversions between fixture values and their JSON form.
enum FixtureCoding {
  struct Problem: Error {
    let reason: String
  }

  static func tree(for interaction: Fixture.Interaction) -> JSONTree {
    var members: [(String, JSONTree)] = [("request", tree(for: interaction.request))]
    if let response = interaction.response {
      members.append(("response", tree(for: response)))
    }
    if let error = interaction.error {
      members.append(("error", .string(error)))
    }
    return .object(members)
  }

  static func tree(for request: Fixture.Request) -> JSONTree {
    var members: [(String, JSONTree)] = [
      ("method", .string(request.method.rawValue)),
      ("url", .string(request.url.absoluteString)),
    ]
    if !request.headerFields.isEmpty {
      members.append(("headers", tree(for: request.headerFields)))
    }
    if !request.body.isEmpty {
      members.append(("body", body(request.body, mediaType: mediaType(request.headerFields))))
    }
    return .object(members)
  }

  static func tree(for response: Fixture.Response) -> JSONTree {
    var members: [(String, JSONTree)] = [("status", .number("\(response.status)"))]
    if !response.headerFields.isEmpty {
      members.append(("headers", tree(for: response.headerFields)))
    }
    if !response.body.isEmpty {
      members.append(("body", body(response.body, mediaType: mediaType(response.headerFields))))
    }
    if let trailers = response.trailerFields {
      members.append(("trailers", tree(for: trailers)))
    }
    return .object(members)
  }

  static func tree(for fields: HTTPFields) -> JSONTree {
    .array(fields.map { .array([.string($0.name), .string($0.value)]) })
  }

  static func mediaType(_ fields: HTTPFields) -> String? {
    fields["Content-Type"].map { value in
      (value.split(separator: ";").first.map(String.init) ?? "").trimmingCharacters(
        in: .whitespaces
      )
      .lowercased()
    }
  }

  static func isJSON(_ mediaType: String?) -> Bool {
    guard let mediaType else { return false }
    return mediaType == "application/json" || mediaType.hasSuffix("+json")
      || mediaType == "text/json"
  }

  /// `{"json": …}` for a JSON body, `{"text": …}` for UTF-8 text, `{"base64": …}` otherwise.
  static func body(_ data: Data, mediaType: String?) -> JSONTree {
    if isJSON(mediaType), let tree = JSONTree(parsing: data) {
      return .object([("json", tree)])
    }
    if let text = String(validating: data, as: UTF8.self),
      !text.unicodeScalars.contains(where: {
        $0.value < 0x20 && !"\n\r\t".unicodeScalars.contains($0)
      })
    {
      return .object([("text", .string(text))])
    }
    return .object([("base64", .string(data.base64EncodedString()))])
  }

  static func data(fromBody tree: JSONTree) throws(Problem) -> Data {
    if let json = tree["json"] { return Data(json.compact.utf8) }
    if let text = tree["text"]?.stringValue { return Data(text.utf8) }
    if let encoded = tree["base64"]?.stringValue {
      guard let data = Data(base64Encoded: encoded) else {
        throw Problem(reason: "a base64 body is not valid base64")
      }
      return data
    }
    throw Problem(reason: #"a body needs a "json", "text" or "base64" member"#)
  }

  static func fields(from tree: JSONTree?, member: String = "headers") throws(Problem)
    -> HTTPFields
  {
    guard let tree else { return HTTPFields() }
    let shape = "\"\(member)\" must be an array of [name, value] pairs"
    guard let pairs = tree.arrayValue else { throw Problem(reason: shape) }
    var fields = HTTPFields()
    for pair in pairs {
      guard let items = pair.arrayValue, items.count == 2,
        let name = items[0].stringValue, let value = items[1].stringValue
      else { throw Problem(reason: shape) }
      do {
        try fields.append(value, for: name)
      } catch {
        let kind = member == "headers" ? "header" : "trailer"
        throw Problem(reason: "\(kind) \(name): \(error)")
      }
    }
    return fields
  }

  static func interaction(from tree: JSONTree) throws(Problem) -> Fixture.Interaction {
    guard let request = tree["request"] else { throw Problem(reason: #"no "request""#) }
    guard let method = request["method"]?.stringValue, !method.isEmpty else {
      throw Problem(reason: #"the request has no "method""#)
    }
    guard let urlText = request["url"]?.stringValue, let url = URL(string: urlText) else {
      throw Problem(reason: #"the request has no valid "url""#)
    }
    let recordedRequest = Fixture.Request(
      method: HTTPMethod(rawValue: method),
      url: url,
      headerFields: try fields(from: request["headers"]),
      body: try request["body"].map(data(fromBody:)) ?? Data()
    )
    var response: Fixture.Response?
    if let tree = tree["response"] {
      guard let status = tree["status"]?.intValue, (100...599).contains(status) else {
        throw Problem(reason: #"the response has no valid "status""#)
      }
      response = Fixture.Response(
        status: status,
        headerFields: try fields(from: tree["headers"]),
        body: try tree["body"].map(data(fromBody:)) ?? Data()
      )
      if let trailers = tree["trailers"] {
        response?.trailerFields = try fields(from: trailers, member: "trailers")
      }
    }
    let error = tree["error"]?.stringValue
    guard response != nil || error != nil else {
      throw Problem(reason: #"it has neither a "response" nor an "error""#)
    }
    return Fixture.Interaction(request: recordedRequest, response: response, error: error)
  }
}
