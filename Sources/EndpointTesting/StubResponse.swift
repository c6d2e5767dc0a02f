import Foundation

/// What a stub rule answers: a response, an error, a hang until cancelled, or a response
/// computed from the request, optionally after a delay.
///
/// ```swift
/// stub.on(.get, "/jobs/7").replies([
///   .json(["state": "running"]),
///   .json(["state": "running"]).delayed(by: .seconds(1)),
///   .json(["state": "done"]),
/// ])
/// stub.on(.get, "/slow").reply(.failure(URLError(.timedOut)))
/// ```
public struct StubResponse: Sendable {
  enum Action: Sendable {
    case reply(status: Int, headers: HTTPFields, body: Data)
    case failure(any Error)
    case hang
    case compute(@Sendable (RecordedRequest) async throws -> StubResponse)
    /// Why the response cannot work; using it throws ``TestDoubleFailure/Kind/invalidStub``.
    case invalid(String)
  }

  let action: Action
  /// How long to wait, on the stub client's clock, before answering.
  public private(set) var delay: Duration?

  init(action: Action, delay: Duration? = nil) {
    self.action = action
    self.delay = delay
  }

  /// A response with a status, header fields and body bytes.
  ///
  /// A header field that is not valid makes the stub throw
  /// ``TestDoubleFailure/Kind/invalidStub`` when it is used.
  public static func status(
    _ status: Int,
    headers: [String: String] = [:],
    body: Data = Data()
  ) -> StubResponse {
    make(status: status, headers: headers, body: body, contentType: nil)
  }

  /// Bytes with a media type (`application/octet-stream` unless `headers` sets `Content-Type`).
  public static func data(
    _ data: Data,
    status: Int = 200,
    contentType: String = "application/octet-stream",
    headers: [String: String] = [:]
  ) -> StubResponse {
    make(status: status, headers: headers, body: data, contentType: contentType)
  }

  /// UTF-8 text, `text/plain; charset=utf-8` unless `headers` sets `Content-Type`.
  public static func text(
    _ text: String,
    status: Int = 200,
    headers: [String: String] = [:]
  ) -> StubResponse {
    make(
      status: status,
      headers: headers,
      body: Data(text.utf8),
      contentType: "text/plain; charset=utf-8"
    )
  }

  /// A value encoded as JSON, `application/json` unless `headers` sets `Content-Type`.
  ///
  /// Pass the encoder your API uses (dates, key strategy) so the endpoint's parser sees what the
  /// server would send.
  public static func json(
    _ value: some Encodable,
    status: Int = 200,
    headers: [String: String] = [:],
    encoder: JSONEncoder = JSONEncoder()
  ) -> StubResponse {
    do {
      let body = try encoder.encode(value)
      return make(status: status, headers: headers, body: body, contentType: "application/json")
    } catch {
      return StubResponse(
        action: .invalid("the JSON body of type \(type(of: value)) could not be encoded: \(error)")
      )
    }
  }

  /// JSON text sent as written, `application/json` unless `headers` sets `Content-Type`.
  ///
  /// The text must be valid JSON, otherwise the stub throws
  /// ``TestDoubleFailure/Kind/invalidStub`` when it is used. (To send a JSON string value, write
  /// it quoted: `#""hello""#`.)
  public static func json(
    _ text: String,
    status: Int = 200,
    headers: [String: String] = [:]
  ) -> StubResponse {
    json(Data(text.utf8), status: status, headers: headers)
  }

  /// JSON bytes sent as given, like the `String` form: they must be valid JSON.
  public static func json(
    _ data: Data,
    status: Int = 200,
    headers: [String: String] = [:]
  ) -> StubResponse {
    guard JSONTree(parsing: data) != nil else {
      return StubResponse(
        action: .invalid("the JSON body is not valid JSON: \(Redaction.none.preview(of: data))")
      )
    }
    return make(status: status, headers: headers, body: data, contentType: "application/json")
  }

  /// Throws `error` instead of answering, as a transport does on a timeout or a lost connection.
  public static func failure(_ error: any Error) -> StubResponse {
    StubResponse(action: .failure(error))
  }

  /// Never answers: the call waits until its task is cancelled, then throws `CancellationError`.
  public static var hang: StubResponse {
    StubResponse(action: .hang)
  }

  /// A response computed from each request, for fakes that keep state or echo what they get.
  public static func computed(
    _ compute: @escaping @Sendable (RecordedRequest) async throws -> StubResponse
  ) -> StubResponse {
    StubResponse(action: .compute(compute))
  }

  /// This response, given after waiting `delay` on the stub client's clock.
  public func delayed(by delay: Duration) -> StubResponse {
    var copy = self
    copy.delay = delay
    return copy
  }

  /// The trailer fields the body is followed by (see ``withTrailerFields(_:)``).
  public private(set) var trailerFields: HTTPFields?

  /// This response, with trailer fields after its body, as `HTTPBody.trailerFields` reports
  /// them once the body has been read.
  ///
  /// ```swift
  /// stub.on(.get, "/export").reply(
  ///   .text("a,b\n1,2\n").withTrailerFields(["X-Checksum": "9f2c"])
  /// )
  /// ```
  ///
  /// A field that is not valid makes the stub throw ``TestDoubleFailure/Kind/invalidStub`` when
  /// it is used.
  public func withTrailerFields(_ fields: [String: String]) -> StubResponse {
    do {
      var copy = self
      copy.trailerFields = try HTTPFields(fields)
      return copy
    } catch {
      return StubResponse(
        action: .invalid("a trailer field is not valid: \(error)"),
        delay: delay
      )
    }
  }

  private static func make(
    status: Int,
    headers: [String: String],
    body: Data,
    contentType: String?
  ) -> StubResponse {
    guard (100...599).contains(status) else {
      return StubResponse(
        action: .invalid("status \(status) is not between 100 and 599")
      )
    }
    do {
      var fields = try HTTPFields(headers)
      if let contentType, !fields.contains("Content-Type") {
        try fields.append(contentType, for: "Content-Type")
      }
      return StubResponse(action: .reply(status: status, headers: fields, body: body))
    } catch {
      return StubResponse(
        action: .invalid("a response header is not valid: \(error)")
      )
    }
  }

  /// A short label for rule descriptions and logs.
  var summary: String {
    switch action {
    case .reply(let status, _, let body):
      return body.isEmpty ? "\(status)" : "\(status) with \(body.count) bytes"
    case .failure(let error): return "throws \(error)"
    case .hang: return "hangs until cancelled"
    case .compute: return "computed"
    case .invalid(let reason): return "invalid: \(reason)"
    }
  }
}
