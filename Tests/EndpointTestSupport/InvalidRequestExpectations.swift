import EndpointCore
import Testing

/// Records a failure unless `body` throws an `InvalidRequest` of `kind`, and returns the error
/// thrown: a check of the type alone would pass for a refusal of the wrong input.
@discardableResult
public func expectInvalidRequest<R>(
  _ kind: InvalidRequest.Kind,
  sourceLocation: SourceLocation = #_sourceLocation,
  performing body: () throws -> R
) -> InvalidRequest? {
  let error = #expect(throws: InvalidRequest.self, sourceLocation: sourceLocation, performing: body)
  if let error {
    #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
  }
  return error
}

/// Records a failure unless `body` throws an `InvalidRequest` of `kind`, and returns the error
/// thrown.
@discardableResult
public func expectInvalidRequest<R>(
  _ kind: InvalidRequest.Kind,
  sourceLocation: SourceLocation = #_sourceLocation,
  performing body: () async throws -> sending R
) async -> InvalidRequest? {
  let error = await #expect(
    throws: InvalidRequest.self, sourceLocation: sourceLocation, performing: body)
  if let error {
    #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
  }
  return error
}
