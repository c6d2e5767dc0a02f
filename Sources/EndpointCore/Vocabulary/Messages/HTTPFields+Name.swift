import EndpointPrimitives

extension HTTPFields {
  /// A header field name, checked once: the common ones are typed (`.contentType`,
  /// `.authorization`), others come from a literal or a checked string.
  ///
  /// ```swift
  /// var fields: HTTPFields = [.accept: "application/json", .userAgent: "MyApp/2.1"]
  /// fields[.authorization] = "Bearer \(token)"
  /// fields[.accept]   // "application/json"
  /// ```
  ///
  /// Comparisons ignore case, as HTTP does: `Name("content-type") == .contentType`.
  public struct Name: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as written, such as `"Content-Type"`.
    public let rawValue: String

    /// A name from a string known only at run time, or `nil` if it is not an RFC 9110 token.
    ///
    /// With a literal argument, `Name("X-Trace")` is the literal form, ``init(stringLiteral:)``.
    ///
    /// - Parameter name: the field name.
    public init?(_ name: String) {
      guard HTTPToken.isValid(name) else { return nil }
      rawValue = name
    }

    /// A name from a literal in the program's source.
    ///
    /// A literal that is not an RFC 9110 token (empty, or with a space, a colon or a control
    /// character) is a programming error and stops the program; use ``init(_:)`` for names that
    /// come from input.
    ///
    /// - Parameter value: the field name.
    public init(stringLiteral value: String) {
      precondition(HTTPToken.isValid(value), "\"\(value)\" is not a valid header field name")
      rawValue = value
    }

    /// The name as written.
    public var description: String { rawValue }

    /// Whether two names are the same field, ignoring case.
    public static func == (lhs: Name, rhs: Name) -> Bool {
      HTTPToken.namesEqual(lhs.rawValue, rhs.rawValue)
    }

    /// Hashes the name without regard to case.
    public func hash(into hasher: inout Hasher) {
      for byte in rawValue.utf8 { hasher.combine(HTTPToken.lowercased(byte)) }
    }

    /// `Accept`.
    public static let accept: Name = "Accept"
    /// `Accept-Encoding`.
    public static let acceptEncoding: Name = "Accept-Encoding"
    /// `Accept-Language`.
    public static let acceptLanguage: Name = "Accept-Language"
    /// `Authorization`.
    public static let authorization: Name = "Authorization"
    /// `Cache-Control`.
    public static let cacheControl: Name = "Cache-Control"
    /// `Content-Disposition`.
    public static let contentDisposition: Name = "Content-Disposition"
    /// `Content-Encoding`.
    public static let contentEncoding: Name = "Content-Encoding"
    /// `Content-Length`.
    public static let contentLength: Name = "Content-Length"
    /// `Content-Type`.
    public static let contentType: Name = "Content-Type"
    /// `Cookie`.
    public static let cookie: Name = "Cookie"
    /// `ETag`.
    public static let eTag: Name = "ETag"
    /// `If-Match`.
    public static let ifMatch: Name = "If-Match"
    /// `If-Modified-Since`.
    public static let ifModifiedSince: Name = "If-Modified-Since"
    /// `If-None-Match`.
    public static let ifNoneMatch: Name = "If-None-Match"
    /// `Last-Modified`.
    public static let lastModified: Name = "Last-Modified"
    /// `Location`.
    public static let location: Name = "Location"
    /// `Retry-After`.
    public static let retryAfter: Name = "Retry-After"
    /// `Set-Cookie`.
    public static let setCookie: Name = "Set-Cookie"
    /// `User-Agent`.
    public static let userAgent: Name = "User-Agent"
    /// `WWW-Authenticate`.
    public static let wwwAuthenticate: Name = "WWW-Authenticate"
  }
}

extension HTTPFields: ExpressibleByDictionaryLiteral {
  /// Creates a list from a literal, in the order written; a name may repeat.
  ///
  /// ```swift
  /// let fields: HTTPFields = [
  ///   .accept: "application/json", "X-Trace": "a", "X-Trace": "b",
  /// ]
  /// ```
  ///
  /// Values are made valid as by the `fields[.name] = value` setter: each control character but
  /// HTAB becomes a space.
  ///
  /// - Parameter elements: the fields, in order.
  public init(dictionaryLiteral elements: (Name, String)...) {
    self.init(minimumCapacity: elements.count)
    for (name, value) in elements {
      append(checkedValue: Self.validValue(value), for: name.rawValue)
    }
  }

  /// The fields called `name`, without `try`.
  ///
  /// Reading joins repeated values with `", "`, as the `String` subscript does. Setting replaces
  /// every field of that name with one (in the place of the first), and `nil` removes them. The
  /// name is already checked; in the value, each control character but HTAB (CR, LF, NUL…)
  /// becomes a space, so a value from input can never start another field. Use
  /// ``set(_:for:)``, which throws, to refuse such a value instead.
  ///
  /// ```swift
  /// request.headerFields[.userAgent] = "MyApp/2.1"
  /// ```
  public subscript(_ name: Name) -> String? {
    get { self[name.rawValue] }
    set {
      guard let newValue else {
        remove(name.rawValue)
        return
      }
      // The name is a token and the value has no forbidden character left: this cannot throw.
      try? set(Self.validValue(newValue), for: name.rawValue)
    }
  }

  /// The values of every field called `name`, in order.
  ///
  /// - Parameter name: the field name.
  /// - Returns: the values, unjoined.
  public func values(for name: Name) -> [String] {
    values(for: name.rawValue)
  }

  /// Whether at least one field is called `name`.
  ///
  /// - Parameter name: the field name.
  public func contains(_ name: Name) -> Bool {
    contains(name.rawValue)
  }

  /// `value` with each control character but HTAB replaced by a space.
  static func validValue(_ value: String) -> String {
    guard HTTPToken.forbiddenValueCharacter(in: value) != nil else { return value }
    let bytes = value.utf8.map { byte -> UInt8 in
      byte == 0x09 || (byte >= 0x20 && byte != 0x7F) ? byte : 0x20
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
