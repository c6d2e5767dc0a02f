import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Redaction {
  /// Header fields whose values are URLs: their user information and secret query items are
  /// hidden, the rest kept.
  static let urlValuedHeaders: Set<String> = ["location", "content-location", "referer"]

  /// `fields` with every hidden value replaced by ``HTTPFields/redactedValue``; the URLs of
  /// `Location`, `Content-Location`, `Referer` and the targets of `Link` are redacted like any
  /// URL.
  public func apply(to fields: HTTPFields) -> HTTPFields {
    var removed: [String] = []
    return redact(fields, removed: &removed)
  }

  /// `fields` redacted as ``apply(to:)-(HTTPFields)`` does; the values taken out are added to
  /// `removed`.
  func redact(_ fields: HTTPFields, removed: inout [String]) -> HTTPFields {
    guard self != .none else { return fields }
    var copy = HTTPFields()
    for field in fields {
      var value = field.value
      if hidesHeader(field.name) {
        if value != HTTPFields.redactedValue {
          removed.append(value)
          // `Bearer abc`: the credential alone may show up elsewhere.
          if let space = value.firstIndex(of: " "), value[..<space].allSatisfy(\.isLetter) {
            removed.append(String(value[space...].trimmed(" ")))
          }
        }
        value = HTTPFields.redactedValue
      } else if Self.urlValuedHeaders.contains(field.name.lowercased()) {
        value = redactURL(text: value, replacement: HTTPFields.redactedValue, removed: &removed)
      } else if HTTPToken.namesEqual(field.name, "Link") {
        value = redactLinkTargets(value, removed: &removed)
      }
      if !valuePatterns.isEmpty {
        value = String(decoding: applyPatterns(Array(value.utf8), removed: &removed), as: UTF8.self)
      }
      // The name already passed validation and the replacement is plain text: this cannot fail.
      try? copy.append(value, for: field.name)
    }
    return copy
  }

  /// A JSON string value that is a URL (or holds URLs between spaces) with its user
  /// information and secret query values replaced by `replacement`.
  func redactURLsInString(_ text: String, replacement: String, removed: inout [String]) -> String {
    text.split(separator: " ", omittingEmptySubsequences: false).map { word in
      word.contains("://")
        ? redactURL(text: String(word), replacement: replacement, removed: &removed)
        : String(word)
    }.joined(separator: " ")
  }

  /// A `Link` value (RFC 8288) with the URL between each `<` and `>` redacted; the
  /// replacement is percent-encoded there, so the value still parses as links.
  func redactLinkTargets(_ value: String, removed: inout [String]) -> String {
    guard value.contains("<") else { return value }
    var result = ""
    var rest = Substring(value)
    while let open = rest.firstIndex(of: "<"),
      let close = rest[open...].firstIndex(of: ">")
    {
      result += rest[...open]
      result += redactURL(
        text: String(rest[rest.index(after: open)..<close]), replacement: "%3Credacted%3E",
        removed: &removed)
      result += ">"
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }

  /// The URL's text with hidden query values and the user information (`user:password@`)
  /// replaced by ``HTTPFields/redactedValue``, unless this redaction hides nothing (``none``);
  /// everything else is kept byte for byte.
  public func apply(to url: URL) -> String {
    var removed: [String] = []
    return redactURL(
      text: url.absoluteString, replacement: HTTPFields.redactedValue, removed: &removed)
  }

  /// `url` with its hidden query values and user information replaced by `<redacted>`,
  /// percent-encoded so the result is still a URL: for values that must stay a `URL` (the
  /// metrics of a span); without its query, user information and fragment if that fails.
  func redactedURL(_ url: URL) -> URL {
    var removed: [String] = []
    let text = redactURL(
      text: url.absoluteString, replacement: "%3Credacted%3E", removed: &removed)
    if let redacted = URL(string: text) { return redacted }
    var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    components?.user = nil
    components?.password = nil
    components?.query = nil
    components?.fragment = nil
    return components?.url ?? url
  }

  /// A URL's text (absolute or relative) with hidden query values and user information
  /// replaced by `replacement`; the values taken out are added to `removed`.
  func redactURL(text: String, replacement: String, removed: inout [String]) -> String {
    guard self != .none else { return text }
    return URLRedaction.redacted(
      text: text,
      hidingUserInfo: true,
      replacement: replacement,
      hidesQueryItem: { hidesQueryParameter(Self.decodeFormComponent(Substring($0))) },
      removed: &removed
    )
  }

  /// A body with its secrets hidden: the values of hidden JSON keys at any depth (JSON is
  /// recognised by its content, whatever `contentType` says), hidden form fields (an
  /// `application/x-www-form-urlencoded` type, or a body that reads as `name=value&…`), hidden
  /// multipart fields, and every secret value: JSON Web Tokens and `Bearer`/`Basic` credentials
  /// (in ``standard``), and those added with ``adding(secretValues:secretPrefixes:)``.
  ///
  /// - Parameters:
  ///   - body: the bytes of a request or response body.
  ///   - contentType: the message's `Content-Type`, when known.
  /// - Returns: the body, with every byte that is not hidden kept as it was.
  public func apply(toBody body: Data, contentType: String? = nil) -> Data {
    var removed: [String] = []
    return redactBody(body, contentType: contentType, removed: &removed)
  }

  /// A body redacted as ``apply(toBody:contentType:)`` does; the values taken out are added to
  /// `removed`.
  /// `formReplacement` replaces form values (percent-encoded where the result must stay a
  /// valid form).
  func redactBody(
    _ body: Data,
    contentType: String?,
    formReplacement: String = HTTPFields.redactedValue,
    removed: inout [String]
  ) -> Data {
    guard self != .none, !body.isEmpty else { return body }
    let bytes = Array(body)
    let redacted = redactBytes(
      bytes, contentType: contentType, formReplacement: formReplacement, removed: &removed)
    return redacted == bytes ? body : Data(redacted)
  }

  func redactBytes(
    _ bytes: [UInt8],
    contentType: String?,
    formReplacement: String = HTTPFields.redactedValue,
    removed: inout [String]
  ) -> [UInt8] {
    var output = bytes
    if let boundary = MultipartSecretScanner.boundary(contentType: contentType, bytes: bytes) {
      output = MultipartSecretScanner.redact(
        bytes,
        boundary: boundary,
        hidesField: hidesQueryParameter,
        redactContent: { content, type, removed in
          redactBytes(
            content, contentType: type, formReplacement: formReplacement, removed: &removed)
        },
        removed: &removed
      )
    } else if JSONSecretScanner.looksLikeJSON(bytes) {
      output = JSONSecretScanner.redact(
        bytes, hidesKey: hidesJSONKey,
        redactURLs: { text, removed in
          redactURLsInString(text, replacement: formReplacement, removed: &removed)
        },
        removed: &removed)
    } else if Self.mediaType(contentType) == "application/x-www-form-urlencoded"
      || Self.looksLikeForm(bytes),
      let text = String(validating: bytes, as: UTF8.self)
    {
      output = Array(
        redactingPairs(Substring(text), replacement: formReplacement, removed: &removed).utf8)
    }
    return applyPatterns(output, removed: &removed)
  }

  /// A text for people to read (an error's description, a log line) with its secrets hidden:
  /// user information and hidden query items of the URLs in it, hidden `name=value` pairs,
  /// the values of hidden keys of JSON in it, and every secret value: JSON Web Tokens and
  /// `Bearer`/`Basic` credentials (in ``standard``), and those added with
  /// ``adding(secretValues:secretPrefixes:)``.
  public func apply(toText text: String) -> String {
    var removed: [String] = []
    return redactText(text, removed: &removed)
  }

  /// A text redacted as ``apply(toText:)`` does; the values taken out are added to `removed`.
  func redactText(_ text: String, removed: inout [String]) -> String {
    guard self != .none, !text.isEmpty else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var word = ""
    func flush() {
      if !word.isEmpty { result += redactWord(word, removed: &removed) }
      word = ""
    }
    for character in text {
      if character.isWhitespace || character == "\"" || character == "'" || character == "`" {
        flush()
        result.append(character)
      } else {
        word.append(character)
      }
    }
    flush()
    var bytes = Array(result.utf8)
    if result.contains("{") {
      bytes = JSONSecretScanner.redact(
        bytes, hidesKey: hidesJSONKey,
        redactURLs: { text, removed in
          redactURLsInString(text, replacement: HTTPFields.redactedValue, removed: &removed)
        },
        removed: &removed)
    }
    return String(decoding: applyPatterns(bytes, removed: &removed), as: UTF8.self)
  }

  /// One word of a text: a URL (from its scheme on), `name=value&…` pairs, or anything else.
  private func redactWord(_ word: String, removed: inout [String]) -> String {
    if let separator = word.firstRange(of: "://") {
      var start = separator.lowerBound
      while start > word.startIndex {
        let previous = word[word.index(before: start)]
        guard previous.isLetter || previous.isNumber || "+-.".contains(previous) else { break }
        start = word.index(before: start)
      }
      let prefix = word[..<start]
      return redactWordPairs(String(prefix), removed: &removed)
        + redactURL(
          text: String(word[start...]), replacement: HTTPFields.redactedValue, removed: &removed)
    }
    return redactWordPairs(word, removed: &removed)
  }

  /// `…name=value&name=value` inside a word, hidden values replaced; the word is kept when it
  /// holds no `=`.
  private func redactWordPairs(_ word: String, removed: inout [String]) -> String {
    guard word.contains("=") else { return word }
    let pairStart = word.lastIndex(of: "?").map(word.index(after:)) ?? word.startIndex
    var prefix = String(word[..<pairStart])
    var pairs = word[pairStart...]
    // `(token=abc` or `[password=x`: punctuation before the first name is not part of it.
    while let first = pairs.first, !first.isLetter, !first.isNumber, first != "_", first != "%" {
      prefix.append(first)
      pairs = pairs.dropFirst()
    }
    return prefix + redactingPairs(pairs, removed: &removed)
  }

  /// A form body (`name=value&…`) with hidden values replaced; `nil` when the bytes are not text.
  func applyToForm(_ body: Data) -> Data? {
    guard let text = String(validating: body, as: UTF8.self) else { return nil }
    var removed: [String] = []
    return Data(redactingPairs(Substring(text), removed: &removed).utf8)
  }

  /// `name=value` pairs joined by `&`, with hidden values replaced.
  func redactingPairs(_ pairs: Substring) -> String {
    var removed: [String] = []
    return redactingPairs(pairs, removed: &removed)
  }

  func redactingPairs(
    _ pairs: Substring,
    replacement: String = HTTPFields.redactedValue,
    removed: inout [String]
  ) -> String {
    if self == .none { return String(pairs) }
    return pairs.split(separator: "&", omittingEmptySubsequences: false).map { pair in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let rawName = pair[..<equals]
      guard hidesQueryParameter(Self.decodeFormComponent(rawName)) else {
        // A URL in the value (`redirect_uri=https%3A%2F%2F…`) loses its own secrets.
        return rawName + "="
          + URLRedaction.redacted(
            value: String(pair[pair.index(after: equals)...]), replacement: replacement,
            hidesQueryItem: { hidesQueryParameter(Self.decodeFormComponent(Substring($0))) },
            removed: &removed)
      }
      let value = pair[pair.index(after: equals)...]
      if value != Substring(HTTPFields.redactedValue), value != Substring(replacement) {
        removed.append(Self.decodeFormComponent(value))
      }
      return "\(rawName)=\(replacement)"
    }.joined(separator: "&")
  }

  /// `bytes` with every range a value pattern matches replaced by ``HTTPFields/redactedValue``.
  func applyPatterns(_ bytes: [UInt8], removed: inout [String]) -> [UInt8] {
    guard !valuePatterns.isEmpty, !bytes.isEmpty else { return bytes }
    var ranges = valuePatterns.flatMap { $0.ranges(in: bytes) }
    guard !ranges.isEmpty else { return bytes }
    ranges.sort { $0.lowerBound < $1.lowerBound }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var position = 0
    for range in ranges where range.upperBound > position {
      let start = max(range.lowerBound, position)
      output += bytes[position..<start]
      removed.append(String(decoding: bytes[start..<range.upperBound], as: UTF8.self))
      output += Array(HTTPFields.redactedValue.utf8)
      position = range.upperBound
    }
    output += bytes[position...]
    return output
  }

  /// Whether `bytes` read as `name=value&name=value` with nothing a form encoder leaves out
  /// (white space, quotes, control characters).
  static func looksLikeForm(_ bytes: [UInt8]) -> Bool {
    guard bytes.contains(UInt8(ascii: "=")), bytes.count < 1 << 20 else { return false }
    var nameLength = 0
    var inValue = false
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "&"):
        guard inValue || nameLength == 0 else { return false }
        nameLength = 0
        inValue = false
      case UInt8(ascii: "="):
        guard !inValue, nameLength > 0 else { return inValue }
        inValue = true
      case 0...0x20, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
        UInt8(ascii: ">"), UInt8(ascii: "{"), UInt8(ascii: "}"):
        return false
      default:
        if !inValue { nameLength += 1 }
      }
    }
    return inValue || nameLength == 0
  }

  /// The media type of a `Content-Type`, lowercased, without parameters.
  static func mediaType(_ contentType: String?) -> String? {
    guard let contentType else { return nil }
    let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return mediaType.trimmed(" \t").lowercased()
  }

  /// A query or form name with `+` read as a space and `%XX` escapes decoded.
  static func decodeFormComponent(_ text: Substring) -> String {
    PercentEncoding.decode(String(text.map { $0 == "+" ? " " : $0 }))
  }

  /// A bounded, UTF-8-safe preview of a body with its secrets hidden, for error messages and
  /// logs: ``apply(toBody:contentType:)``, then at most `limit` bytes of its text, cut on a
  /// character boundary, with the number of bytes left out; binary data is described by its
  /// size only. ``none`` previews a body as it is.
  ///
  /// ```swift
  /// Redaction.none.preview(of: Data("hello world".utf8), limit: 5)
  /// // "hello… (6 more bytes)"
  /// ```
  ///
  /// - Parameters:
  ///   - body: the body, or its first bytes when `totalLength` says it is longer.
  ///   - contentType: the message's `Content-Type`, when known.
  ///   - totalLength: the whole body's length, when `body` holds only its first bytes.
  ///   - limit: the most bytes shown, 512 unless given.
  public func preview(
    of body: Data,
    contentType: String? = nil,
    totalLength: Int64? = nil,
    limit: Int = 512
  ) -> String {
    // A huge body is redacted only as far as a preview can reach.
    let reach = max(limit, 0) * 4 + 64 * 1024
    var kept = body
    var total = totalLength ?? Int64(body.count)
    if kept.count > reach {
      kept = body.prefix(reach)
      total = max(total, Int64(body.count))
    }
    var removed: [String] = []
    let redacted = redactBody(kept, contentType: contentType, removed: &removed)
    // Redaction changes the length; what was left out keeps its own count.
    let left = total - Int64(kept.count)
    return BodyPreview.text(ofPrefix: redacted, total: Int64(redacted.count) + left, limit: limit)
  }
}
