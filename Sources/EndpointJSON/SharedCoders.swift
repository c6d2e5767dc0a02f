#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The coders used when a caller passes none.
///
/// One instance of each is shared: making a `JSONDecoder` per call costs more than decoding a
/// small body. Both are configured once here and never changed afterwards, so sharing them
/// across tasks is safe.
@usableFromInline
enum SharedCoders {
  /// Encodes with sorted keys, so the same value always gives the same bytes (stable fixtures,
  /// signatures and cache keys).
  @usableFromInline
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()

  /// A `JSONDecoder` with its default settings.
  @usableFromInline
  static let decoder = JSONDecoder()
}
