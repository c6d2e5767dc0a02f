import EndpointCore
import EndpointTestSupport
import Testing

@Suite struct HTTPFieldsTests {
  @Test func fieldsKeepTheirOrderAndCase() throws {
    let fields = try HTTPFields([("B-Field", "1"), ("a-field", "2"), ("C-FIELD", "3")])
    #expect(fields.map(\.name) == ["B-Field", "a-field", "C-FIELD"])
    #expect(fields.map(\.value) == ["1", "2", "3"])
    #expect(fields.count == 3)
    #expect(fields[1] == (try HTTPFields.Field(name: "a-field", value: "2")))
  }

  @Test func lookupIgnoresCase() throws {
    let fields = try HTTPFields([("Content-Type", "text/html")])
    #expect(fields["content-type"] == "text/html")
    #expect(fields["CONTENT-TYPE"] == "text/html")
    #expect(fields.values(for: "cOnTeNt-TyPe") == ["text/html"])
    #expect(fields.contains("content-TYPE"))
    #expect(!fields.contains("Content-Length"))
    #expect(fields["Content-Length"] == nil)
    #expect(fields.values(for: "Content-Length").isEmpty)
  }

  @Test func repeatedNamesAreKeptAndJoinedBySubscript() throws {
    var fields = HTTPFields()
    try fields.append("gzip", for: "Accept-Encoding")
    try fields.append("1", for: "X-Other")
    try fields.append("br", for: "accept-encoding")
    #expect(fields.count == 3)
    #expect(fields["ACCEPT-ENCODING"] == "gzip, br")
    #expect(fields.values(for: "Accept-Encoding") == ["gzip", "br"])
  }

  @Test func setCookieValuesStaySeparateInValuesFor() throws {
    let fields = try HTTPFields([
      ("Set-Cookie", "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT"), ("Set-Cookie", "b=2"),
    ])
    #expect(
      fields.values(for: "set-cookie") == ["a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "b=2"])
  }

  @Test func appendGoesLast() throws {
    var fields = try HTTPFields([("A", "1"), ("B", "2")])
    try fields.append("3", for: "A")
    #expect(fields.map(\.description) == ["A: 1", "B: 2", "A: 3"])
  }

  @Test func setReplacesEveryFieldOfTheNameAtTheFirstPosition() throws {
    var fields = try HTTPFields([("X", "0"), ("Accept", "a"), ("Y", "1"), ("accept", "b")])
    try fields.set("c", for: "ACCEPT")
    #expect(fields.map(\.description) == ["X: 0", "ACCEPT: c", "Y: 1"])
  }

  @Test func setOfANewNameGoesLast() throws {
    var fields = try HTTPFields([("X", "0")])
    try fields.set("1", for: "Y")
    #expect(fields.map(\.description) == ["X: 0", "Y: 1"])
  }

  @Test func removeDropsEveryFieldOfTheNameInAnyCase() throws {
    var fields = try HTTPFields([("Cookie", "a"), ("X", "1"), ("COOKIE", "b")])
    fields.remove("cookie")
    #expect(fields.map(\.description) == ["X: 1"])
    fields.remove("Absent")
    #expect(fields.count == 1)
  }

  @Test func dictionaryInitOrdersByName() throws {
    let fields = try HTTPFields(["b": "2", "c": "3", "a": "1"])
    #expect(fields.map(\.name) == ["a", "b", "c"])
  }

  @Test(arguments: ["", "X Y", "X:", "Naïve", "X\r\nEvil", "(x)", "a/b", "X\0", "a\"b", "a@b"])
  func namesThatAreNotTokensAreRejected(_ name: String) throws {
    var fields = HTTPFields()
    let error = try #require(throws: InvalidRequest.self) {
      try fields.append("value", for: name)
    }
    #expect(error.kind == .headerField)
    #expect(error.fieldName == name)
    #expect(error.description.hasPrefix("Invalid header field name"))
    #expect(error.description.contains(String(reflecting: name)))
    #expect(fields.isEmpty)
  }

  @Test func everyTokenCharacterIsAcceptedInNames() throws {
    var fields = HTTPFields()
    let name = "!#$%&'*+-.^_`|~09azAZ"
    try fields.append("1", for: name)
    #expect(fields[name] == "1")
  }

  @Test(arguments: [
    ("a\r\nEvil: 1", "CR"), ("a\nEvil: 1", "LF"), ("a\rb", "CR"), ("a\0b", "NUL"),
  ])
  func valuesWithLineBreaksOrNULAreRejected(_ value: String, _ character: String) throws {
    var fields = try HTTPFields([("X", "kept")])
    let appendError = try #require(throws: InvalidRequest.self) {
      try fields.append(value, for: "X")
    }
    #expect(appendError.kind == .headerField)
    #expect(appendError.fieldName == "X")
    #expect(appendError.reason == "it contains \(character), which a field value must not contain")
    let setError = try #require(throws: InvalidRequest.self) {
      try fields.set(value, for: "X")
    }
    #expect(setError.kind == .headerField)
    #expect(setError.reason == appendError.reason)
    #expect(fields.map(\.description) == ["X: kept"])
  }

  @Test func headerInjectionThroughAValueIsImpossible() throws {
    let error = try #require(throws: InvalidRequest.self) {
      try HTTPFields([("X", "a\r\nEvil: 1")])
    }
    #expect(error.kind == .headerField)
    #expect(error.fieldName == "X")
    #expect(!error.description.contains("Evil"), "the value itself must not be shown")
  }

  @Test func pairInitNamesTheFirstInvalidField() throws {
    let error = try #require(throws: InvalidRequest.self) {
      try HTTPFields([("Good", "1"), ("Bad Name", "2"), ("Also Bad", "3")])
    }
    #expect(error.kind == .headerField)
    #expect(error.fieldName == "Bad Name")
  }

  @Test func tabsAndNonASCIIAreAllowedInValues() throws {
    let fields = try HTTPFields([("X", "a\tb"), ("Y", "café")])
    #expect(fields["X"] == "a\tb")
    #expect(fields["Y"] == "café")
  }

  @Test func fieldInitValidates() throws {
    let error = expectInvalidRequest(.headerField) {
      try HTTPFields.Field(name: "A B", value: "1")
    }
    #expect(error?.fieldName == "A B")
    let field = try HTTPFields.Field(name: "A", value: "1")
    #expect(field.description == "A: 1")
  }

  @Test func descriptionHasOneLinePerField() throws {
    let fields = try HTTPFields([("A", "1"), ("B", "2")])
    #expect(fields.description == "A: 1\nB: 2")
  }

  @Test func equalityDependsOnOrder() throws {
    #expect(try HTTPFields([("A", "1"), ("B", "2")]) == HTTPFields([("A", "1"), ("B", "2")]))
    #expect(try HTTPFields([("A", "1"), ("B", "2")]) != HTTPFields([("B", "2"), ("A", "1")]))
  }

  @Test func redactedHidesCredentialsInAnyCaseAndKeepsOrder() throws {
    let fields = try HTTPFields([
      ("authorization", "Bearer secret"), ("Accept", "text/plain"), ("COOKIE", "session=1"),
      ("Set-Cookie", "id=2"), ("Proxy-Authorization", "Basic abc"), ("X-Api-Key", "k"),
      ("X-Auth-Token", "t"), ("X-Client-Secret", "s"), ("X-Request-Id", "42"),
    ])
    let redacted = fields.redacted()
    #expect(
      redacted.map(\.description) == [
        "authorization: <redacted>", "Accept: text/plain", "COOKIE: <redacted>",
        "Set-Cookie: <redacted>", "Proxy-Authorization: <redacted>", "X-Api-Key: <redacted>",
        "X-Auth-Token: <redacted>", "X-Client-Secret: <redacted>", "X-Request-Id: 42",
      ])
    let more = fields.redacted(additionalNames: ["x-request-id"])
    #expect(more["X-REQUEST-ID"] == HTTPFields.redactedValue)
    #expect(fields["Authorization"] == "Bearer secret", "the original is unchanged")
  }

  @Test func sensitiveNamesIgnoreCase() {
    #expect(HTTPFields.isSensitive("AUTHORIZATION"))
    #expect(HTTPFields.isSensitive("set-cookie"))
    #expect(HTTPFields.isSensitive("X-CSRF-TOKEN"))
    #expect(!HTTPFields.isSensitive("Accept"))
    #expect(HTTPFields.isSensitive("x-session", additionalNames: ["X-Session"]))
  }
}

@Suite struct HTTPFieldNameTests {
  @Test func typedNamesReadAndSetWithoutTry() {
    var fields: HTTPFields = [.accept: "application/json", .userAgent: "MyApp/1.0"]
    fields[.userAgent] = "MyApp/2.1"
    fields[.authorization] = "Bearer abc"
    #expect(fields["user-agent"] == "MyApp/2.1")
    #expect(fields[.accept] == "application/json")
    #expect(fields.map(\.name) == ["Accept", "User-Agent", "Authorization"])
    fields[.accept] = nil
    #expect(!fields.contains(.accept))
  }

  @Test func dictionaryLiteralKeepsOrderAndRepeatedNames() {
    let fields: HTTPFields = ["X-Trace": "a", .contentType: "text/plain", "x-trace": "b"]
    #expect(fields.values(for: "X-Trace") == ["a", "b"])
    #expect(fields.map(\.name) == ["X-Trace", "Content-Type", "x-trace"])
  }

  @Test func settingAValueWithoutTryTurnsControlCharactersIntoSpaces() {
    var fields = HTTPFields()
    fields[.userAgent] = "App\r\nX-Injected: 1\u{0}\tend"
    #expect(fields[.userAgent] == "App  X-Injected: 1 \tend")
    #expect(fields.count == 1)
    let literal: HTTPFields = [.cookie: "a=1\nb=2"]
    #expect(literal[.cookie] == "a=1 b=2")
  }

  @Test func namesCompareWithoutCaseAndRuntimeNamesAreChecked() {
    let lower = "content-type"
    let inputs = ["Bad Name", "", "X:Y", "A\r\nB"]
    #expect(HTTPFields.Name(lower) == .contentType)
    #expect(HTTPFields.Name(lower)?.hashValue == HTTPFields.Name.contentType.hashValue)
    #expect(inputs.allSatisfy { HTTPFields.Name($0) == nil })
  }
}
