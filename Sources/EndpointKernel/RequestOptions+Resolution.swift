import EndpointCore

// A request's own settings resolved against its client's, the same way by every transport.
extension RequestOptions {
  /// The idle timeout to apply, given the client's.
  package func idleTimeout(client: Duration?) -> Duration? {
    Self.resolve(idleTimeout, client: client)
  }

  /// The response size limit to apply, given the client's.
  package func maximumResponseSize(client: Int?) -> Int? {
    Self.resolve(maximumResponseSize, client: client)
  }

  /// The redirect policy to apply, given the client's.
  package func redirectPolicy(client: RedirectPolicy) -> RedirectPolicy {
    redirectPolicy ?? client
  }

  private static func resolve<Value>(_ limit: Limit<Value>?, client: Value?) -> Value? {
    switch limit {
    case nil: client
    case .unlimited?: nil
    case .limited(let value)?: value
    }
  }
}
