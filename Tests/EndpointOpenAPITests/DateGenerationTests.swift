import EndpointOpenAPI
import Testing

/// Date-times (`format: date-time`) beyond models' properties, as `Date`s coded as RFC 3339 by
/// the shared `RFC3339` wrapper: parameters in every place and style, whole bodies and answers,
/// form fields; and calendar days (`format: date`), the output's `CalendarDay`, everywhere.
@Suite struct DateGenerationTests {
  static let parameters = """
    {"/events/{at}/{days}": {"get": {"operationId": "listEvents",
       "parameters": [
         {"name": "at", "in": "path", "required": true,
          "schema": {"type": "string", "format": "date-time"}},
         {"name": "days", "in": "path", "required": true, "style": "label",
          "schema": {"type": "array", "items": {"type": "string", "format": "date-time"}}},
         {"name": "since", "in": "query", "schema": {"type": "string", "format": "date-time"}},
         {"name": "between", "in": "query", "explode": false,
          "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Stamp"}}},
         {"name": "X-Since", "in": "header", "required": true,
          "schema": {"type": "string", "format": "date-time"}},
         {"name": "seen", "in": "cookie", "schema": {"type": "string", "format": "date-time"}}],
       "responses": {"204": {"description": "OK"}}}}}
    """

  /// The output for `paths` beside a date-time schema `Stamp`, and its `API.swift`: no
  /// warnings, and the support file.
  static func generateWithStamp(
    paths: String
  ) throws -> (output: OpenAPIGenerator.Output, api: String) {
    let output = try generate(
      document(
        schemas: #"{"Stamp": {"type": "string", "format": "date-time"}}"#, paths: paths))
    #expect(output.warnings.isEmpty)
    #expect(
      output.files.map(\.path) == ["API.swift", "Models/Stamp.swift", "Support/RFC3339.swift"])
    return (output, try #require(source(output, "API.swift")))
  }

  /// Each place and style writes the date's text where it writes a string's: the path's
  /// segment, a label segment's values encoded one by one (a fraction's `.` is the style's
  /// delimiter), a query item, a header field, a cookie; a `$ref` to a date-time schema is a
  /// date-time too. The support file is written for them though no model has a date-time.
  @Test func dateTimeParametersAreDatesWrittenAsRFC3339() async throws {
    let (output, api) = try Self.generateWithStamp(paths: Self.parameters)
    #expect(
      api.contains(
        """
            at: Date,
            days: [Date],
            xSince: Date,
            since: Date? = nil,
            between: [Date]? = nil,
            seen: Date? = nil
          ) -> Endpoint<Void> {
        """))
    #expect(
      api.contains(
        """
            if let since {
              queryItems.append(URLQueryItem(name: "since", value: RFC3339(wrappedValue: since).text))
            }
        """))
    #expect(
      api.contains(
        #"let queryValues = between.map { segmentText(RFC3339(wrappedValue: $0).text) }"#))
    #expect(api.contains(#"headerFields["X-Since"] = RFC3339(wrappedValue: xSince).text"#))
    #expect(
      api.contains(#"cookiePairs.append("seen=\(fieldText(RFC3339(wrappedValue: seen).text))")"#))
    #expect(
      api.contains(
        "let daysSegment = days.map { segmentText(RFC3339(wrappedValue: $0).text) }"
          + #".joined(separator: ",")"#))
    #expect(
      api.contains(
        """
              path: \"""
                events/\\(RFC3339(wrappedValue: at).text)/\\
                .\\(raw: daysSegment)?\\(raw: rawQuery.joined(separator: "&"))
                \""",
        """))
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  /// A whole body or answer of date-times is coded by the wrapper: the endpoint decodes the
  /// wrapper and maps it to what it wraps, and the body is sent wrapped, so neither depends on
  /// a coder's date strategy. The support file comes with them.
  @Test func dateTimeBodiesAndAnswersAreDatesCodedByTheWrapper() async throws {
    let paths = """
      {"/clock": {"get": {"operationId": "now", "responses": {"200": {"description": "OK",
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Stamp"}}}}}},
         "put": {"operationId": "setClock", "requestBody": {"content": {"application/json": {
           "schema": {"type": "string", "format": "date-time"}}}},
         "responses": {"200": {"description": "OK", "content": {"application/json": {
           "schema": {"type": ["string", "null"], "format": "date-time"}}}}}}},
       "/plans": {"post": {"operationId": "plan", "requestBody": {"required": true,
         "content": {"application/json": {"schema": {"type": "object",
           "additionalProperties": {"type": "string", "format": "date-time"}}}}},
         "responses": {"200": {"description": "OK", "content": {"application/json": {
           "schema": {"type": "array", "items": {"type": "string", "format": "date-time"}}}}}}}}}
      """
    let (output, api) = try Self.generateWithStamp(paths: paths)
    #expect(
      api.contains(
        """
          static func now() -> Endpoint<Date> {
            Endpoint<RFC3339<Date>>(json: .get, path: "clock").map(\\.wrappedValue)
          }
        """))
    #expect(
      api.contains(
        """
          static func setClock(body: Date? = nil) -> Endpoint<Date?> {
            guard let body else {
              return Endpoint<RFC3339<Date?>>(json: .put, path: "clock").map(\\.wrappedValue)
            }
            return Endpoint<RFC3339<Date?>>(
              json: .put,
              path: "clock",
              body: RFC3339(wrappedValue: body)
            ).map(\\.wrappedValue)
          }
        """))
    #expect(
      api.contains(
        """
          static func plan(body: [String: Date]) -> Endpoint<[Date]> {
            Endpoint<RFC3339<[Date]>>(
              json: .post,
              path: "plans",
              body: RFC3339(wrappedValue: body)
            ).map(\\.wrappedValue)
          }
        """))
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  /// A calendar day (`format: date`) is the output's `CalendarDay` in properties, parameters
  /// (its `yyyy-MM-dd` text) and bodies, which codes itself: no wrapper. The support file is
  /// written once, beside the models.
  @Test func calendarDaysAreOneSupportTypeEverywhere() async throws {
    let paths = """
      {"/days/{day}": {"get": {"operationId": "showDay",
         "parameters": [
           {"name": "day", "in": "path", "required": true,
            "schema": {"type": "string", "format": "date"}},
           {"name": "around", "in": "query", "explode": false,
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Birthday"}}}],
         "responses": {"200": {"description": "OK", "content": {"application/json": {
           "schema": {"type": ["string", "null"], "format": "date"}}}}}},
         "put": {"operationId": "setDays", "parameters": [
           {"name": "day", "in": "path", "required": true,
            "schema": {"type": "string", "format": "date"}}],
           "requestBody": {"required": true, "content": {"application/json": {
           "schema": {"type": "array", "items": {"type": "string", "format": "date"}}}}},
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(
      document(
        schemas: """
          {"Birthday": {"type": "string", "format": "date"},
           "Person": {"type": "object", "required": ["born"], "properties": {
             "born": {"type": "string", "format": "date"},
             "anniversaries": {"type": "array", "items": {"$ref": "#/components/schemas/Birthday"}}}}}
          """, paths: paths))
    #expect(output.warnings.isEmpty)
    #expect(
      output.files.map(\.path) == [
        "API.swift", "Models/Birthday.swift", "Models/Person.swift", "Support/CalendarDay.swift",
      ])
    #expect(
      source(output, "API.swift")?.contains(
        """
          static func showDay(day: CalendarDay, around: [CalendarDay]? = nil) -> Endpoint<CalendarDay?> {
            var rawQuery: [String] = []
            if let around {
              let queryValues = around.map { segmentText($0.description) }
              rawQuery.append("around=" + queryValues.joined(separator: ","))
            }
            return Endpoint(
              json: .get,
              path: "days/\\(day.description)?\\(raw: rawQuery.joined(separator: "&"))"
            )
          }

          /// `PUT /days/{day}`
          static func setDays(day: CalendarDay, body: [CalendarDay]) -> Endpoint<Void> {
            Endpoint(json: .put, path: "days/\\(day.description)", body: body)
          }
        """) == true)
    #expect(
      source(output, "Models/Person.swift") == """
        struct Person: Codable, Sendable, Hashable {
          var anniversaries: [CalendarDay]?
          var born: CalendarDay
        }

        """)
    // The schema's own alias is a day too.
    #expect(source(output, "Models/Birthday.swift") == "typealias Birthday = CalendarDay\n")
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  /// A form body's date-time and calendar-day fields, and arrays of them, are their text, as
  /// in a query; the struct declared in place brings both support files.
  @Test func formFieldsOfDatesAreTheirText() async throws {
    let paths = """
      {"/book": {"post": {"operationId": "book",
         "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {
           "schema": {"type": "object", "required": ["at"], "properties": {
             "at": {"type": "string", "format": "date-time"},
             "on": {"type": "string", "format": "date"},
             "days": {"type": "array", "items": {"type": "string", "format": "date"}}}}}}},
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.warnings.isEmpty)
    #expect(
      output.files.map(\.path) == [
        "API.swift", "Support/RFC3339.swift", "Support/CalendarDay.swift",
      ])
    #expect(
      source(output, "API.swift")?.contains(
        """
            formFields.append(("at", RFC3339(wrappedValue: body.at).text))
            for item in body.days ?? [] {
              formFields.append(("days", item.description))
            }
            if let value = body.on {
              formFields.append(("on", value.description))
            }
        """) == true)
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  /// A date-time property of an object parameter is written as its text too; where a style
  /// cannot express a date-time, the parameter is reported as for any other type.
  @Test func aDateTimeInAnObjectParameterIsItsTextAndAnUnfitStyleIsReported() throws {
    let paths = """
      {"/a": {"get": {"operationId": "pick",
         "parameters": [
           {"name": "range", "in": "query", "style": "deepObject", "schema": {
             "type": "object", "required": ["from"], "properties": {
               "from": {"type": "string", "format": "date-time"}}}},
           {"name": "at", "in": "query", "style": "deepObject",
            "schema": {"type": "string", "format": "date-time"}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(document(paths: paths))
    let api = try #require(source(output, "API.swift"))
    #expect(
      api.contains(
        #"URLQueryItem(name: "range[from]", value: RFC3339(wrappedValue: range.from).text))"#))
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1a/get/parameters/1/schema: a query parameter of type Date in the deepObject "
          + "style is not supported yet; the optional parameter is left out"
      ])
  }

  /// A date-time or calendar-day variant of a `oneOf` is a `Date` or `CalendarDay` case, the
  /// date-time decoded and encoded by the wrapper; an error body that is one, or names a
  /// date-time schema, is decoded by the wrapper too. Both support files come with them.
  @Test func variantsAndErrorBodiesOfDatesAreDatesAndDays() async throws {
    let schemas = """
      {"Stamp": {"type": "string", "format": "date-time"},
       "Reopening": {"oneOf": [{"$ref": "#/components/schemas/Stamp"},
         {"type": "string", "format": "date"}]}}
      """
    let paths = """
      {"/desk": {"get": {"operationId": "openDesk",
         "responses": {"204": {"description": "OK"},
           "429": {"description": "Later", "content": {"application/json": {
             "schema": {"$ref": "#/components/schemas/Stamp"}}}},
           "503": {"description": "Closed", "content": {"application/json": {
             "schema": {"$ref": "#/components/schemas/Reopening"}}}},
           "default": {"description": "Other", "content": {"application/json": {
             "schema": {"type": "array", "items": {"type": "string", "format": "date"}}}}}}}}}
      """
    let output = try generate(document(schemas: schemas, paths: paths))
    #expect(output.warnings.isEmpty)
    #expect(
      output.files.map(\.path) == [
        "API.swift", "Models/Reopening.swift", "Models/Stamp.swift", "Support/RFC3339.swift",
        "Support/CalendarDay.swift",
      ])
    #expect(
      source(output, "API.swift")?.contains(
        """
              case 429:
                self = try .status429(error.decodeBody(as: RFC3339<Date>.self).wrappedValue)
              case 503:
                self = try .status503(error.decodeBody())
              default:
                self = try .other(error.decodeBody())
        """) == true)
    let reopening = try #require(source(output, "Models/Reopening.swift"))
    #expect(
      reopening.contains(
        """
        enum Reopening: Codable, Sendable, Hashable {
          case date(Date)
          case day(CalendarDay)

          init(from decoder: any Decoder) throws {
            var matches: [Self] = []
            if let value = try? RFC3339<Date>(from: decoder).wrappedValue {
              matches.append(.date(value))
            }
            if let value = try? CalendarDay(from: decoder) {
              matches.append(.day(value))
            }
        """))
    #expect(
      reopening.contains(
        """
            case .date(let value):
              try RFC3339(wrappedValue: value).encode(to: encoder)
            case .day(let value):
              try value.encode(to: encoder)
        """))
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  /// A `oneOf` of a date-time or a day beside a string (or a string enum) cannot match a
  /// date's text exactly once: it is reported and skipped; an `anyOf` takes the first match.
  @Test func aOneOfOfADateBesideAStringIsReported() throws {
    let schemas = """
      {"When": {"oneOf": [{"type": "string"}, {"type": "string", "format": "date"}]},
       "Whenever": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "string"}]}}
      """
    let output = try generate(document(schemas: schemas))
    #expect(
      output.warnings.map(\.description) == [
        "#/components/schemas/When/oneOf/1: this variant and String both read a date's text, "
          + "so it matches no variant exactly once; the schema is skipped"
      ])
    #expect(output.files.map(\.path) == ["Models/Whenever.swift", "Support/RFC3339.swift"])
    #expect(source(output, "Models/Whenever.swift")?.contains("case date(Date)") == true)
  }

  /// A page's date-time or day cursor is sent as its text, the next page's parameter.
  @Test func aDateCursorIsSentAsItsText() async throws {
    let paths = """
      {"/events": {"get": {"operationId": "listEvents",
         "parameters": [{"name": "before", "in": "query",
           "schema": {"type": "string", "format": "date-time"}}],
         "responses": {"200": {"description": "OK", "content": {"application/json": {
           "schema": {"type": "object", "properties": {
             "oldest": {"$ref": "#/components/schemas/Stamp"}}}}}}}}},
       "/days": {"get": {"operationId": "listDays",
         "parameters": [{"name": "before", "in": "query",
           "schema": {"type": "string", "format": "date"}}],
         "responses": {"200": {"description": "OK", "content": {"application/json": {
           "schema": {"type": "object", "required": ["oldest"], "properties": {
             "oldest": {"type": "string", "format": "date"}}}}}}}}}}
      """
    let pagination = OpenAPIGenerator.Pagination(
      style: .cursor, cursorParameter: "before", cursorField: "oldest")
    let output = try generate(
      document(schemas: #"{"Stamp": {"type": "string", "format": "date-time"}}"#, paths: paths),
      options: .init(pagination: pagination))
    #expect(output.warnings.isEmpty)
    let api = try #require(source(output, "API.swift"))
    #expect(
      api.contains(
        """
            .cursor(name: "before") { page in
              page.oldest.map { RFC3339(wrappedValue: $0).text }
            }
        """))
    #expect(
      api.contains(
        """
            .cursor(name: "before") { page in
              page.oldest.description
            }
        """))
    try await TypeCheckTests.expectTypeChecks(output.files)
  }
}
