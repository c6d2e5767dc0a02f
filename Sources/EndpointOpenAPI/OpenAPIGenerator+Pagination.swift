extension OpenAPIGenerator {
  /// How an API's list operations page: the configuration's `pagination` object.
  ///
  /// ```json
  /// {"style": "link"}
  /// {"style": "cursor", "cursorParameter": "after", "cursorField": "next_cursor",
  ///  "hasMoreField": "has_more"}
  /// ```
  ///
  /// Each operation it applies to gets a `Paginator` factory beside its endpoint, named after
  /// it: `listReposPaginator()`.
  public struct Pagination: Sendable, Hashable {
    /// Where the next page is found.
    public enum Style: String, Sendable, Hashable, CaseIterable {
      /// The `Link` response field's `rel="next"` target (RFC 8288): for every operation that
      /// answers with an array.
      case link
      /// A cursor read from the page, sent as a query parameter: for every operation that has
      /// the query parameter ``Pagination/cursorParameter`` and answers with an object that
      /// has the property ``Pagination/cursorField``.
      case cursor
    }

    /// Where the next page is found.
    public var style: Style
    /// The query parameter that asks for the page after a cursor, such as `after`.
    public var cursorParameter: String?
    /// The property of a page that holds the next page's cursor, such as `next_cursor`; a
    /// `nil` or empty cursor ends the walk.
    public var cursorField: String?
    /// A boolean property of a page that is `true` while more pages follow, such as
    /// `has_more`; the walk ends at a page where it is `false` or absent.
    public var hasMoreField: String?
    /// The operations it applies to, by `operationId`; `nil` for every operation that fits.
    public var operations: Set<String>?

    /// Creates a description of the pagination.
    /// - Parameters:
    ///   - style: where the next page is found.
    ///   - cursorParameter: the cursor's query parameter, for ``Style/cursor``.
    ///   - cursorField: the property holding the next cursor, for ``Style/cursor``.
    ///   - hasMoreField: a boolean property that is `true` while more pages follow.
    ///   - operations: the operations it applies to; `nil` for every one that fits.
    public init(
      style: Style,
      cursorParameter: String? = nil,
      cursorField: String? = nil,
      hasMoreField: String? = nil,
      operations: Set<String>? = nil
    ) {
      self.style = style
      self.cursorParameter = cursorParameter
      self.cursorField = cursorField
      self.hasMoreField = hasMoreField
      self.operations = operations
    }

    init(_ node: JSONNode) throws(Failure) {
      let pointer = JSONPointer.appending("pagination", to: JSONPointer.root)
      guard let object = node.object else { throw Options.wrong("pagination", "an object") }
      guard let style = object["style"]?.string.flatMap(Style.init(rawValue:)) else {
        throw Options.wrong("style", "\"link\" or \"cursor\"", in: pointer)
      }
      self.init(style: style)
      for (key, value) in object.sorted(by: { $0.key < $1.key }) {
        switch key {
        case "style": break
        case "operations": operations = try Options.strings(value, key: key, in: pointer)
        case "cursorParameter", "cursorField", "hasMoreField":
          guard let name = value.string, !name.isEmpty else {
            throw Options.wrong(key, "a name", in: pointer)
          }
          switch key {
          case "cursorParameter": cursorParameter = name
          case "cursorField": cursorField = name
          default: hasMoreField = name
          }
        default:
          throw Failure(
            kind: .invalidConfiguration, pointer: JSONPointer.appending(key, to: pointer),
            message: "unknown key \"\(key)\"; the keys are style, cursorParameter, cursorField, "
              + "hasMoreField and operations")
        }
      }
      if style == .cursor {
        for (key, value) in [("cursorParameter", cursorParameter), ("cursorField", cursorField)]
        where value == nil {
          throw Options.wrong(key, "given for the cursor style", in: pointer)
        }
      }
    }
  }
}
