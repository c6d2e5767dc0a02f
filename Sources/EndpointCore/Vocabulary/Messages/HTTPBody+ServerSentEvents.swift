extension HTTPBody {
  /// The body decoded as a stream of server-sent events (`text/event-stream`), as they arrive.
  ///
  /// Parsing follows the WHATWG HTML standard: a leading byte-order mark is skipped, lines
  /// starting with `:` are comments, `data:` lines of one event are joined with `"\n"`, a
  /// single space after the colon is removed, an event is dispatched at a blank line (an event
  /// without data is not), `id` persists until changed and is ignored when it contains NUL,
  /// `retry` takes ASCII digits only, unknown fields are ignored and an event cut off by the
  /// end of the body is dropped.
  ///
  /// ```swift
  /// for try await event in body.serverSentEvents where event.event == "update" {
  ///   apply(event.data)
  /// }
  /// ```
  public var serverSentEvents: some AsyncSequence<ServerSentEvent, any Error> & Sendable {
    ServerSentEvents(body: self, maximumLength: Self.defaultMaximumLineLength)
  }

  /// The body as server-sent events, as ``serverSentEvents`` reads them, with each line and
  /// each event's data at most `maximumLength` bytes long.
  ///
  /// - Parameter maximumLength: the longest line, and the longest data of one event, in bytes;
  ///   past it the sequence throws a ``TransportFailure`` of kind
  ///   ``TransportFailure/Kind/lineTooLong``.
  public func serverSentEvents(
    maximumLength: Int
  ) -> some AsyncSequence<ServerSentEvent, any Error> & Sendable {
    ServerSentEvents(body: self, maximumLength: maximumLength)
  }

  /// The server-sent events of a body; see ``EndpointCore/HTTPBody/serverSentEvents``.
  struct ServerSentEvents: AsyncSequence, Sendable {
    typealias Element = ServerSentEvent

    let body: HTTPBody
    let maximumLength: Int

    func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(
        reader: LineReader(body, maximumLength: maximumLength, kind: .serverSentEvent))
    }

    struct AsyncIterator: AsyncIteratorProtocol {
      var reader: LineReader
      var parser = ServerSentEventParser()

      mutating func next() async throws -> ServerSentEvent? {
        while let line = try await reader.next(includeUnterminated: false) {
          if let event = parser.consume(line) { return event }
          if parser.pendingDataLength > reader.maximumLength {
            throw TransportFailure.lineTooLong(serverSentEvent: true, limit: reader.maximumLength)
          }
        }
        return nil
      }
    }
  }
}

/// The event-stream interpretation rules, one line at a time.
struct ServerSentEventParser: Sendable {
  private var data: String = ""
  private var hasData = false
  private var eventType = ""
  private var lastEventID = ""
  private var retry: Duration?
  private var isFirstLine = true

  /// The bytes of data gathered for the event not yet dispatched.
  var pendingDataLength: Int { data.utf8.count }

  /// Takes one line (without its ending); returns an event when the line dispatches one.
  mutating func consume(_ bytes: [UInt8]) -> ServerSentEvent? {
    var line = bytes[...]
    if isFirstLine {
      isFirstLine = false
      if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
    }
    if line.isEmpty { return dispatch() }
    if line.first == UInt8(ascii: ":") { return nil }
    let field: ArraySlice<UInt8>
    var value: ArraySlice<UInt8>
    if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
      field = line[..<colon]
      value = line[line.index(after: colon)...]
      if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
    } else {
      field = line
      value = []
    }
    switch String(decoding: field, as: UTF8.self) {
    case "event":
      eventType = String(decoding: value, as: UTF8.self)
    case "data":
      if hasData { data += "\n" }
      data += String(decoding: value, as: UTF8.self)
      hasData = true
    case "id":
      if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
    case "retry":
      if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
        let milliseconds = Int64(String(decoding: value, as: UTF8.self))
      {
        retry = .milliseconds(milliseconds)
      }
    default:
      break
    }
    return nil
  }

  private mutating func dispatch() -> ServerSentEvent? {
    defer {
      data = ""
      hasData = false
      eventType = ""
    }
    guard hasData else { return nil }
    return ServerSentEvent(
      id: lastEventID.isEmpty ? nil : lastEventID,
      event: eventType.isEmpty ? "message" : eventType,
      data: data,
      retry: retry
    )
  }
}
