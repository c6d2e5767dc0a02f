import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An ordered list of HTTP header fields with case-insensitive names.
///
/// Repeated names are kept in order. Every field is checked as it goes in: a name that is not an
/// RFC 9110 token, or a value that contains a control character other than HTAB (CR, LF, NUL
/// and the rest), is rejected with an
/// ``InvalidRequest`` (`.headerField`) error, so header injection is impossible through this type.
///
/// ```swift
/// var fields = HTTPFields()
/// try fields.append("gzip", for: "Accept-Encoding")
/// try fields.append("br", for: "accept-encoding")
/// fields["ACCEPT-ENCODING"]               // "gzip, br"
/// fields.values(for: "Accept-Encoding")   // ["gzip", "br"]
/// ```
public struct HTTPFields: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
  /// One header field: a name and a value.
  public struct Field: Sendable, Hashable, CustomStringConvertible {
    /// The field's name, with the case it was given in.
    public let name: String
    /// The field's value.
    public let value: String

    /// Creates a field after checking its name and value.
    ///
    /// - Throws: ``InvalidRequest`` (`.headerField`) if the name is not a token or the value
    ///   contains a control character other than HTAB.
    public init(name: String, value: String) throws(InvalidRequest) {
      guard HTTPToken.isValid(name) else {
        throw InvalidRequest.headerFieldNameNotAToken(name)
      }
      if let character = HTTPToken.forbiddenValueCharacter(in: value) {
        throw InvalidRequest.headerFieldValue(named: name, contains: character)
      }
      self.name = name
      self.value = value
    }

    /// A field whose name and value the caller has already checked, for a transport's parser of
    /// response heads; it skips the second check.
    init(checkedName name: String, value: String) {
      self.name = name
      self.value = value
    }

    /// `Name: value`, with a credential's value hidden as ``HTTPFields/redacted(additionalNames:)``
    /// hides it (``value`` itself is unchanged), so printing a field never shows a secret.
    public var description: String { "\(name): \(shownValue)" }

    /// The value as ``description`` and ``customMirror`` show it: a credential hidden.
    var shownValue: String {
      var fields = HTTPFields()
      fields.append(checkedValue: value, for: name)
      return fields.redacted().first?.value ?? HTTPFields.redactedValue
    }
  }

  private var fields: [Field]

  /// Creates an empty list.
  public init() {
    fields = []
  }

  /// An empty list with room for `minimumCapacity` fields, for code that builds many requests.
  init(minimumCapacity: Int) {
    fields = []
    fields.reserveCapacity(minimumCapacity)
  }

  /// Creates a list from name–value pairs, in order.
  ///
  /// - Throws: ``InvalidRequest`` (`.headerField`) naming the first invalid field.
  public init(_ pairs: some Sequence<(String, String)>) throws(InvalidRequest) {
    fields = []
    for (name, value) in pairs {
      fields.append(try Field(name: name, value: value))
    }
  }

  /// Creates a list from a dictionary; fields are ordered by name so the result is deterministic.
  ///
  /// - Throws: ``InvalidRequest`` (`.headerField`) naming the first invalid field.
  public init(_ dictionary: [String: String]) throws(InvalidRequest) {
    try self.init(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
  }

  /// The position of the first field.
  public var startIndex: Int { fields.startIndex }
  /// The position past the last field.
  public var endIndex: Int { fields.endIndex }
  /// The field at `position`.
  public subscript(position: Int) -> Field { fields[position] }

  /// The values of every field called `name`, joined with `", "`; `nil` when there is none.
  ///
  /// Use ``values(for:)-(String)`` for fields such as `Set-Cookie` whose values must not be joined.
  public subscript(name: String) -> String? {
    let values = values(for: name)
    switch values.count {
    case 0: return nil
    case 1: return values[0]
    default: return values.joined(separator: ", ")
    }
  }

  /// The values of every field called `name` (ignoring case), in order.
  public func values(for name: String) -> [String] {
    fields.lazy.filter { HTTPToken.namesEqual($0.name, name) }.map(\.value)
  }

  /// The value of the first field called `name` (ignoring case), without building an array.
  func firstValue(for name: String) -> String? {
    fields.first { HTTPToken.namesEqual($0.name, name) }?.value
  }

  /// Whether at least one field is called `name` (ignoring case).
  public func contains(_ name: String) -> Bool {
    fields.contains { HTTPToken.namesEqual($0.name, name) }
  }

  /// Adds a field after the existing ones, keeping any others with the same name.
  ///
  /// - Throws: ``InvalidRequest`` (`.headerField`) if the name or value is invalid; the list is
  ///   left unchanged.
  public mutating func append(_ value: String, for name: String) throws(InvalidRequest) {
    fields.append(try Field(name: name, value: value))
  }

  /// Adds a field whose name (an RFC 9110 token) and value (no control character but HTAB) the caller has
  /// already checked, for a transport's parser of response heads.
  package mutating func append(checkedValue value: String, for name: String) {
    fields.append(Field(checkedName: name, value: value))
  }

  /// Replaces every field called `name` with one field holding `value`.
  ///
  /// The new field takes the place of the first one it replaces, or goes last.
  /// - Throws: ``InvalidRequest`` (`.headerField`) if the name or value is invalid; the list is
  ///   left unchanged.
  public mutating func set(_ value: String, for name: String) throws(InvalidRequest) {
    let field = try Field(name: name, value: value)
    if let first = fields.firstIndex(where: { HTTPToken.namesEqual($0.name, name) }) {
      fields[first] = field
      var index = fields.index(after: first)
      while index < fields.endIndex {
        if HTTPToken.namesEqual(fields[index].name, name) {
          fields.remove(at: index)
        } else {
          index += 1
        }
      }
    } else {
      fields.append(field)
    }
  }

  /// Removes every field called `name` (ignoring case).
  public mutating func remove(_ name: String) {
    fields.removeAll { HTTPToken.namesEqual($0.name, name) }
  }

  /// One `Name: value` line per field, with the values of credentials hidden as
  /// ``redacted(additionalNames:)`` hides them, so printing fields never shows a secret.
  public var description: String {
    map(\.description).joined(separator: "\n")
  }
}
