#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension UnexpectedResponse {
  /// Decodes the response body as a typed API error, such as a 422 validation error.
  ///
  /// ```swift
  /// do {
  ///   _ = try await client.call(Todo.create(draft))
  /// } catch let error as UnexpectedResponse where error.status == 422 {
  ///   let problem = try error.decodeBody(as: ValidationProblem.self)
  ///   print(problem.errors)
  /// }
  /// ```
  /// - Parameters:
  ///   - type: the error body's type.
  ///   - decoder: the decoder; a shared default one unless given.
  /// - Throws: ``EndpointCore/ParsingFailure`` with the coding path and a body snippet when the body is not a
  ///   `Body`.
  public func decodeBody<Body: Decodable>(
    as type: Body.Type = Body.self,
    decoder: JSONDecoder = SharedCoders.decoder
  ) throws(ParsingFailure) -> Body {
    try JSONCoding.decode(from: body, decoder: decoder)
  }
}
