/// `Paginator` factories beside the endpoints of list operations.
extension Generation {
  /// The success response of an operation, as pagination needs it.
  struct PagedResponse {
    /// The decoded type, `nil` when it is not JSON or may be `null`.
    var type: TypeRef?
    var node: JSONNode
    var pointer: String
  }

  /// The lines of `<function>Paginator()`, or none: for the cursor style of the configuration
  /// when the operation has its query parameter, for the link style (configured, or a `Link`
  /// header of the response in the document) when the operation answers with an array.
  mutating func paginatorLines(
    _ operation: JSONNode, function: String, response: PagedResponse,
    parameters: [ParameterDecl], scope: NestedScope?, namespace: inout NamespaceDecl
  ) -> [String] {
    let operationID = operation["operationId"]?.string
    var configured = options.pagination
    if let listed = configured?.operations, !listed.contains(operationID ?? "") {
      configured = nil
    }
    let documented = (response.node["headers"]?.object ?? [:]).keys.contains {
      $0.lowercased() == "link"
    }
    let expression: [String]
    let doc: String
    if let pagination = configured, pagination.style == .cursor,
      let cursorParameter = pagination.cursorParameter,
      parameters.contains(where: { $0.location == .query && $0.wireName == cursorParameter })
    {
      do {
        expression = try cursorExpression(pagination, response: response, scope: scope)
      } catch {
        warn(error, "no paginator is generated for it")
        return []
      }
      doc =
        "each next page sends the `\(pagination.cursorField ?? "")` of the page before as "
        + "`\(cursorParameter)`"
        + (pagination.hasMoreField.map { ", while `\($0)` is true" } ?? "") + "."
    } else if configured?.style == .link || documented, case .array = response.type {
      expression = [".linkHeader()"]
      doc = "each next page is the target of the `Link` response field's `rel=\"next\"` link."
    } else {
      if let listed = configured?.operations, let operationID, listed.contains(operationID) {
        warn(
          Unsupported(
            pointer: response.pointer,
            message: "the configuration pages \(operationID), which does not fit its "
              + "\(configured!.style.rawValue) style"),
          "no paginator is generated for it")
      }
      return []
    }
    let name = namespace.functions.claim(function + "Paginator")
    var lines = Self.docLines("How to walk the pages of `\(function)`: " + doc, indent: 2)
    lines.append(
      "\(access)static func \(name)() -> Paginator<\(response.type!.code)> {")
    lines += expression.map { "  " + $0 }
    lines.append("}")
    return lines
  }

  /// `.cursor(name:)` reading the next cursor (and whether more pages follow) from the page.
  private func cursorExpression(
    _ pagination: OpenAPIGenerator.Pagination, response: PagedResponse, scope: NestedScope?
  ) throws(Unsupported) -> [String] {
    let field = pagination.cursorField ?? ""
    guard case .named(let typeName, false) = response.type,
      let properties = objectProperties(typeName, scope)
    else {
      throw Unsupported(
        pointer: response.pointer,
        message: "a page with a cursor must be an object with the property \(field)")
    }
    guard let cursor = properties.first(where: { $0.key == field }) else {
      throw Unsupported(
        pointer: response.pointer, message: "the page has no property \(field) for the cursor")
    }
    let member = "page." + SwiftNames.escaped(cursor.name)
    var next: String
    switch cursor.type {
    case .string: next = member
    case .int: next = cursor.optional ? "\(member).map(String.init)" : "String(\(member))"
    // A date-time or a day is sent as its text, as a parameter of its type is.
    case .dateTime:
      next =
        cursor.optional
        ? "\(member).map { RFC3339(wrappedValue: $0).text }"
        : "RFC3339(wrappedValue: \(member)).text"
    case .calendarDay:
      next = cursor.optional ? "\(member)?.description" : "\(member).description"
    case .base64:
      next =
        cursor.optional
        ? "\(member)?.base64EncodedString()" : "\(member).base64EncodedString()"
    default:
      throw Unsupported(
        pointer: cursor.pointer, message: "a cursor of type \(cursor.type.code) is not supported")
    }
    if let hasMore = pagination.hasMoreField {
      guard let flag = properties.first(where: { $0.key == hasMore }), flag.type == .bool else {
        throw Unsupported(
          pointer: response.pointer, message: "the page has no boolean property \(hasMore)")
      }
      next = "page.\(SwiftNames.escaped(flag.name)) == true ? \(next) : nil"
    }
    let literal = Self.escapedLiteral(pagination.cursorParameter ?? "")
    return [".cursor(name: \"\(literal)\") { page in", "  " + next, "}"]
  }
}
