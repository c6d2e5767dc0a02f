extension URLSessionHTTPClient {
  /// What the client does with a redirect: the package's one ``EndpointCore/RedirectPolicy``,
  /// shared by every transport.
  public typealias RedirectPolicy = EndpointCore.RedirectPolicy
}
