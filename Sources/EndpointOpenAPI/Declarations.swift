/// A Swift type the generated code names.
indirect enum TypeRef: Equatable {
  case string
  case int
  case double
  case bool
  /// An RFC 3339 date-time (`format: date-time`), coded by the `RFC3339` wrapper: in a
  /// property, a parameter (its text), a whole body, an error body or a variant.
  case dateTime
  /// A calendar day (`format: date`), the output's `CalendarDay`, coded as `yyyy-MM-dd`.
  case calendarDay
  /// Base64 text (`format: byte`), `Data` coded by the `Base64` wrapper wherever `dateTime` is
  /// coded by `RFC3339`; a parameter stays `String`.
  case base64
  /// Bytes: a body that is not JSON.
  case data
  /// Any JSON value: a free-form schema.
  case json
  /// A generated type: a model, or a type nested in a model or a namespace.
  case named(String, isStringEnum: Bool)
  case array(TypeRef)
  case dictionary(TypeRef)

  var code: String {
    switch self {
    case .string: "String"
    case .int: "Int"
    case .double: "Double"
    case .bool: "Bool"
    case .dateTime: "Date"
    case .calendarDay: Generation.calendarDayName
    case .data, .base64: "Data"
    case .json: "JSONValue"
    case .named(let name, _): name
    case .array(let element): "[\(element.code)]"
    case .dictionary(let value): "[String: \(value.code)]"
    }
  }

  /// Whether a value of this type is one path segment, query value or header value.
  var isScalar: Bool {
    switch self {
    case .string, .int, .double, .bool, .dateTime, .calendarDay, .base64: true
    case .named(_, let isStringEnum): isStringEnum
    default: false
    }
  }
}

/// A schema's type where it is used, and whether `null` is one of its values.
struct Resolved {
  var type: TypeRef
  var nullable: Bool
}

/// A construct that cannot be generated yet, where it is.
struct Unsupported: Error {
  var pointer: String
  var message: String
}

struct PropertyDecl {
  var key: String
  var name: String
  var type: TypeRef
  var required: Bool
  /// Whether `null` is one of its values.
  var nullable: Bool
  var doc: String?
  var pointer: String

  /// A Swift optional: absent or null.
  var optional: Bool { nullable || !required }
  /// Present, but perhaps null: decoded with `decode(T?.self)`, encoded as `null` when `nil`.
  var requiredNullable: Bool { nullable && required }
}

/// A generated type: a struct for an object schema, a raw-value struct for a string enum, an
/// enum for a `oneOf` or `anyOf`, or a typealias.
struct ModelDecl {
  enum Shape {
    case object([PropertyDecl])
    case stringEnum([String])
    case alias(TypeRef)
    case choice(ChoiceDecl)
  }

  var name: String
  var doc: String?
  var shape: Shape
  var nested: [ModelDecl] = []
  /// The type of an object's `additionalProperties` beside its properties, kept in a
  /// dictionary property of that name; `nil` when it has none.
  var additional: TypeRef? = nil
}

/// The types nested in one struct or namespace, and the names given out there.
struct NestedScope {
  var names: NameScope
  var decls: [ModelDecl] = []
}

/// An enum with one case per variant of a `oneOf` or `anyOf`.
struct ChoiceDecl {
  enum Rule {
    /// `oneOf`: exactly one variant decodes.
    case exactlyOne
    /// `anyOf`: the first variant, in the document's order, that decodes.
    case firstMatch
    /// A discriminator: the property's value names the variant; another value is kept as
    /// `unknown`.
    case discriminator(property: String)
  }

  struct Case {
    var name: String
    var type: TypeRef
    /// The discriminator values that select this case.
    var values: [String] = []
  }

  var keyword: String
  var rule: Rule
  var cases: [Case]
}
