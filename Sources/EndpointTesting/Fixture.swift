import Foundation

/// The recorded interactions of one test: what ``ReplayClient`` reads and writes.
///
/// Users read one through ``ReplayClient/exchanges(inFixture:)``,
/// ``ReplayClient/har(ofFixture:)`` and ``ReplayClient/fixture(fromHAR:redaction:)``.
///
/// On disk it is one pretty-printed JSON file with sorted keys and a format version. Bodies are
/// stored inline: JSON as JSON, text as text, anything else as base64, so a fixture reads and
/// diffs well:
///
/// ```json
/// {
///   "format": "endpoint-fixture",
///   "interactions": [
///     {
///       "request": {
///         "headers": [
///           ["Accept", "application/json"],
///           ["Authorization", "<redacted>"]
///         ],
///         "method": "GET",
///         "url": "https://api.example.com/users/42"
///       },
///       "response": {
///         "body": {"json": {"id": 42, "name": "Ada"}},
///         "headers": [["Content-Type", "application/json"]],
///         "status": 200
///       }
///     }
///   ],
///   "version": 1
/// }
/// ```
struct Fixture: Sendable {
  /// A recorded request.
  struct Request: Sendable, Hashable {
    /// The method.
    var method: HTTPMethod
    /// The full URL, with redacted query values.
    var url: URL
    /// The header fields, with redacted values.
    var headerFields: HTTPFields
    /// The body (empty when there was none).
    var body: Data

    /// Creates a recorded request.
    init(
      method: HTTPMethod, url: URL, headerFields: HTTPFields = HTTPFields(), body: Data = Data()
    ) {
      self.method = method
      self.url = url
      self.headerFields = headerFields
      self.body = body
    }
  }

  /// A recorded response.
  struct Response: Sendable, Hashable {
    /// The status code.
    var status: Int
    /// The header fields, with redacted values.
    var headerFields: HTTPFields
    /// The body (empty when there was none).
    var body: Data
    /// The trailer fields that followed the body, with redacted values; `nil` when there were
    /// none (or the transport does not read them).
    var trailerFields: HTTPFields?

    /// Creates a recorded response.
    ///
    /// - Parameters:
    ///   - status: the status code.
    ///   - headerFields: the header fields.
    ///   - body: the body.
    ///   - trailerFields: the trailer fields that followed the body, if any.
    init(
      status: Int,
      headerFields: HTTPFields = HTTPFields(),
      body: Data = Data(),
      trailerFields: HTTPFields? = nil
    ) {
      self.status = status
      self.headerFields = headerFields
      self.body = body
      self.trailerFields = trailerFields
    }
  }

  /// A request and what came back: a response, or the description of the error the client threw.
  struct Interaction: Sendable, Hashable {
    /// The request.
    var request: Request
    /// The response, or `nil` when the client threw.
    var response: Response?
    /// The error's description when the client threw.
    var error: String?

    /// Creates an interaction.
    init(request: Request, response: Response?, error: String? = nil) {
      self.request = request
      self.response = response
      self.error = error
    }
  }

  /// The fixture format this version of the library writes.
  static let formatVersion = 1

  /// The interactions, in the order they happened.
  var interactions: [Interaction]

  /// Creates a fixture.
  init(interactions: [Interaction] = []) {
    self.interactions = interactions
  }

  /// Reads a fixture file.
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/invalidFixture`` naming
  ///   the file and what is wrong with it.
  init(contentsOf file: URL) throws(TestDoubleFailure) {
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw .invalidFixture(
        file: file.path, reason: "it could not be read: \(error)", underlyingError: error)
    }
    try self.init(data: data, file: file.path)
  }

  /// Reads a fixture from its JSON text.
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/invalidFixture`` saying
  ///   what is wrong with it.
  init(data: Data) throws(TestDoubleFailure) {
    try self.init(data: data, file: nil)
  }

  init(data: Data, file: String?) throws(TestDoubleFailure) {
    func fail(_ reason: String) -> TestDoubleFailure {
      .invalidFixture(file: file, reason: reason)
    }
    guard let root = JSONTree(parsing: data) else { throw fail("it is not valid JSON") }
    guard root["format"]?.stringValue == "endpoint-fixture" else {
      throw fail(#"it has no "format": "endpoint-fixture" field; is it a fixture file?"#)
    }
    guard let version = root["version"]?.intValue else { throw fail(#"it has no "version""#) }
    guard version <= Fixture.formatVersion else {
      throw fail(
        "its format version \(version) is newer than this library reads (\(Fixture.formatVersion))"
      )
    }
    guard let items = root["interactions"]?.arrayValue else {
      throw fail(#"it has no "interactions" array"#)
    }
    var interactions: [Interaction] = []
    for (index, item) in items.enumerated() {
      do {
        interactions.append(try FixtureCoding.interaction(from: item))
      } catch {
        throw fail("interaction \(index + 1): \(error.reason)")
      }
    }
    self.interactions = interactions
  }

  /// The fixture as pretty-printed JSON with sorted keys, ending with a newline.
  func encoded() -> Data {
    let root = JSONTree.object([
      ("format", .string("endpoint-fixture")),
      ("version", .number("\(Fixture.formatVersion)")),
      ("interactions", .array(interactions.map(FixtureCoding.tree(for:)))),
    ])
    return Data((root.formatted() + "\n").utf8)
  }
}

extension Fixture {
  /// The fixture with every interaction redacted as a ``ReplayClient`` redacts what it records,
  /// such as a HAR file saved by a browser.
  ///
  /// - Parameter redaction: what is redacted: ``EndpointCore/Redaction/standard`` by default.
  func redacted(by redaction: Redaction = .standard) -> Fixture {
    FixtureRedaction(redaction: redaction).redact(self)
  }
}
