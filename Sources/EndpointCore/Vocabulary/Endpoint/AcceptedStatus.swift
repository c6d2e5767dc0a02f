/// The status codes a parser accepts; any other status becomes an ``UnexpectedResponse``.
///
/// ```swift
/// let created: AcceptedStatus = .codes(201)
/// created.contains(200)   // false
/// ```
public struct AcceptedStatus: Sendable, Hashable, CustomStringConvertible,
  ExpressibleByArrayLiteral
{
  private let ranges: [ClosedRange<Int>]

  /// Accepts every status in `ranges`.
  public init(_ ranges: [ClosedRange<Int>]) {
    self.ranges = ranges
  }

  /// Accepts exactly the statuses listed: `.void(expecting: [200, 204])`.
  ///
  /// - Parameter codes: the accepted status codes.
  public init(arrayLiteral codes: Int...) {
    self.init(codes.map { $0...$0 })
  }

  /// Any 2xx status: the default.
  public static let success = AcceptedStatus([200...299])

  /// Every status: the parser sees error responses too.
  public static let any = AcceptedStatus([100...599])

  /// Exactly the given codes.
  public static func codes(_ codes: Int...) -> AcceptedStatus {
    AcceptedStatus(codes.map { $0...$0 })
  }

  /// Every code in `range`.
  public static func range(_ range: ClosedRange<Int>) -> AcceptedStatus {
    AcceptedStatus([range])
  }

  /// Whether `status` is accepted.
  public func contains(_ status: Int) -> Bool {
    ranges.contains { $0.contains(status) }
  }

  /// The accepted codes, such as `200...299`, or `none`.
  public var description: String {
    if ranges.isEmpty { return "none" }
    return ranges.map {
      $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)"
    }
    .joined(separator: ", ")
  }
}
