#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What an endpoint sends: a body and the media type that becomes its `Content-Type`.
///
/// ```swift
/// let form = RequestPayload.formURLEncoded([("q", "swift http"), ("page", "2")])
/// form.contentType   // "application/x-www-form-urlencoded"
/// ```
///
/// JSON payloads come from `EndpointJSON`.
public struct RequestPayload: Sendable {
  /// The media type sent as `Content-Type`, or `nil` to send none.
  public var contentType: String?
  /// The body, or `nil` for no body.
  public var body: HTTPBody?

  /// An error found while building the payload (such as a value that cannot be encoded),
  /// reported by ``Endpoint/request()`` so that endpoint factories need not throw.
  var deferredError: (any Error & Sendable)?

  /// A payload that makes ``Endpoint/request()`` throw `error`.
  ///
  /// A payload factory of your own that must not throw returns it, so that the endpoint
  /// initialisers built on it need no `try` (the JSON payloads of EndpointJSON work this way):
  ///
  /// ```swift
  /// extension RequestPayload {
  ///   static func latin1(_ text: String) -> RequestPayload {
  ///     guard let data = text.data(using: .isoLatin1) else {
  ///       let reason = "the text has characters outside ISO 8859-1"
  ///       return .failure(InvalidRequest(.body, reason: reason))
  ///     }
  ///     return .data(data, contentType: "text/plain; charset=iso-8859-1")
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter error: what ``Endpoint/request()`` throws, and so every verb that sends the
  ///   endpoint, before anything is sent.
  /// - Returns: a payload with no body that carries `error`.
  public static func failure(_ error: any Error & Sendable) -> RequestPayload {
    var payload = RequestPayload.empty
    payload.deferredError = error
    return payload
  }

  /// Creates a payload from a body and its media type.
  public init(contentType: String?, body: HTTPBody?) {
    self.contentType = contentType
    self.body = body
  }

  /// No body and no `Content-Type`.
  public static let empty = RequestPayload(contentType: nil, body: nil)

  /// An empty payload; with a content type, an empty body that declares it.
  ///
  /// `.empty()` is the same payload as the static property `empty`:
  ///
  /// ```swift
  /// let page = Endpoint(url: url, method: "GET", payload: .empty(), parser: .string)
  /// ```
  ///
  /// - Parameter contentType: the `Content-Type` of the empty body, or `nil` for no body at all.
  /// - Returns: the property `empty` without a content type, else a zero-length body of that type.
  public static func empty(contentType: String? = nil) -> RequestPayload {
    guard let contentType else { return .empty }
    return RequestPayload(contentType: contentType, body: .empty)
  }

  /// Raw bytes with a media type.
  public static func data(
    _ data: Data,
    contentType: String = "application/octet-stream"
  ) -> RequestPayload {
    RequestPayload(contentType: contentType, body: HTTPBody(data))
  }

  /// UTF-8 text.
  public static func text(
    _ text: String,
    contentType: String = "text/plain; charset=utf-8"
  ) -> RequestPayload {
    RequestPayload(contentType: contentType, body: HTTPBody(text))
  }

  /// A file, streamed from disk as it is sent.
  ///
  /// - Throws: ``InvalidRequest`` (`.body`) if the file cannot be read.
  public static func file(
    _ fileURL: URL,
    contentType: String = "application/octet-stream"
  ) throws(InvalidRequest) -> RequestPayload {
    RequestPayload(contentType: contentType, body: try HTTPBody(contentsOf: fileURL))
  }

  /// An `application/x-www-form-urlencoded` body from ordered pairs.
  ///
  /// Names and values are percent-encoded, so `&`, `=`, `+` and spaces arrive as typed.
  public static func formURLEncoded(_ fields: [(String, String)]) -> RequestPayload {
    let encoded = fields.map {
      PercentEncoding.encodeComponent($0.0) + "=" + PercentEncoding.encodeComponent($0.1)
    }
    return RequestPayload(
      contentType: "application/x-www-form-urlencoded",
      body: HTTPBody(encoded.joined(separator: "&"))
    )
  }

  /// An `application/x-www-form-urlencoded` body from a dictionary, ordered by name so the
  /// bytes are the same on every run.
  public static func formURLEncoded(_ fields: [String: String]) -> RequestPayload {
    formURLEncoded(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
  }

  /// A `multipart/form-data` body with a boundary that occurs in none of the parts.
  ///
  /// ```swift
  /// let payload = RequestPayload.multipart([
  ///   .text(name: "title", value: "Holiday"),
  ///   .file(
  ///     name: "photo", filename: "beach.jpg", contentType: "image/jpeg", data: jpeg
  ///   ),
  /// ])
  /// ```
  public static func multipart(_ parts: [MultipartPart]) -> RequestPayload {
    multipart(parts, boundaryCandidates: { "endpoint-" + randomHex(count: 24) })
  }

  /// A `multipart/form-data` body delimited by the boundary you choose, for a server or a test
  /// that expects a known one.
  ///
  /// ```swift
  /// let payload = try RequestPayload.multipart(
  ///   [.text(name: "title", value: "Holiday")], boundary: "holiday-upload-1")
  /// payload.contentType   // "multipart/form-data; boundary=holiday-upload-1"
  /// ```
  /// - Parameters:
  ///   - parts: the parts, in order.
  ///   - boundary: 1 to 70 ASCII letters, digits and `'+_-.`.
  /// - Throws: ``InvalidRequest`` (`.multipartBoundary`) if the boundary is not of that form, or
  ///   occurs in a part (headers included), where it would end the body early.
  public static func multipart(
    _ parts: [MultipartPart],
    boundary: String
  ) throws(InvalidRequest) -> RequestPayload {
    guard (1...70).contains(boundary.utf8.count) else {
      throw InvalidRequest.invalidBoundary(
        boundary, reason: "a boundary has 1 to 70 characters")
    }
    let allowed = Set("'+_-.".utf8)
    guard
      boundary.utf8.allSatisfy({
        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
          || allowed.contains($0)
      })
    else {
      throw InvalidRequest.invalidBoundary(
        boundary, reason: "a boundary holds only letters, digits and '+_-.")
    }
    let rendered = render(parts)
    let needle = Data(boundary.utf8)
    if let index = rendered.firstIndex(where: { $0.firstRange(of: needle) != nil }) {
      throw InvalidRequest.invalidBoundary(
        boundary, reason: "it occurs in part \(index), which it would end early")
    }
    return assemble(rendered, boundary: boundary)
  }

  static func multipart(
    _ parts: [MultipartPart],
    boundaryCandidates next: () -> String
  ) -> RequestPayload {
    // Each part is rendered once; the boundary is checked against the rendered bytes, headers
    // included, so no part can end the body early.
    let rendered = render(parts)
    var boundary = next()
    while case let needle = Data(boundary.utf8),
      rendered.contains(where: { $0.firstRange(of: needle) != nil })
    {
      boundary = next()
    }
    return assemble(rendered, boundary: boundary)
  }

  private static func render(_ parts: [MultipartPart]) -> [Data] {
    parts.map { part in
      var bytes = Data()
      part.write(to: &bytes)
      return bytes
    }
  }

  private static func assemble(_ rendered: [Data], boundary: String) -> RequestPayload {
    let delimiter = Data("--\(boundary)\r\n".utf8)
    var body = Data()
    body.reserveCapacity(
      rendered.reduce(0) { $0 + $1.count + delimiter.count + 2 } + delimiter.count + 2
    )
    for part in rendered {
      body.append(delimiter)
      body.append(part)
      body.append(contentsOf: [0x0D, 0x0A])
    }
    body.append(Data("--\(boundary)--\r\n".utf8))
    return RequestPayload(
      contentType: "multipart/form-data; boundary=\(boundary)",
      body: HTTPBody(body)
    )
  }

  private static func randomHex(count: Int) -> String {
    let digits = Array("0123456789abcdef")
    return String((0..<count).map { _ in digits[Int.random(in: 0..<16)] })
  }
}
