import Foundation

extension HTTPBody {
  /// A body in memory followed by `trailerFields`, which are readable at once, as they would
  /// be after the body had been read to its end.
  static func inMemory(_ data: Data, trailerFields: HTTPFields?) -> HTTPBody {
    var body = HTTPBody(data)
    if let trailerFields { body.trailers = { trailerFields } }
    return body
  }
}
