/// One server-sent event (the `text/event-stream` format of the WHATWG HTML standard).
///
/// Read them from a response body with ``EndpointCore/HTTPBody/serverSentEvents``:
///
/// ```swift
/// let (_, body) = try await client.send(request)
/// for try await event in body.serverSentEvents {
///   print(event.event, event.data)
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
  /// The last event ID the stream set (it carries over to later events), or `nil` if none.
  public var id: String?
  /// The event type; `"message"` when the event does not name one.
  public var event: String
  /// The data: the `data:` lines of the event joined with `"\n"`.
  public var data: String
  /// The reconnection time the stream last asked for with `retry:`, or `nil` if never.
  public var retry: Duration?

  /// Creates an event.
  public init(id: String? = nil, event: String = "message", data: String, retry: Duration? = nil) {
    self.id = id
    self.event = event
    self.data = data
    self.retry = retry
  }

  /// The event in its wire form (without `retry`).
  public var description: String {
    var lines: [String] = []
    if let id { lines.append("id: \(id)") }
    if event != "message" { lines.append("event: \(event)") }
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
      lines.append("data: \(line)")
    }
    return lines.joined(separator: "\n")
  }
}
