/// Lets the JSON parser spot an `Optional` resource, which decodes an empty body to `nil`.
protocol OptionalMarker {
  /// `Optional.none` of the conforming type.
  static var none: Self { get }
}

extension Optional: OptionalMarker {}

/// Makes `nil` of a generic type that is an `Optional`.
enum NoValue {
  /// `Optional.none` as a `Value` when `Value` is an `Optional`; `nil` otherwise.
  static func of<Value>() -> Value? {
    (Value.self as? any OptionalMarker.Type)?.none as? Value
  }
}
