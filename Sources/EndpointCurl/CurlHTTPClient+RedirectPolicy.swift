extension CurlHTTPClient {
  /// What the client does with a redirect: the package's one ``EndpointCore/RedirectPolicy``,
  /// shared by every transport.
  ///
  /// libcurl never follows redirects itself (`CURLOPT_FOLLOWLOCATION` is off): the SDK builds
  /// each new request by the policy's rules. Cookies set by a response in the chain are also
  /// sent on to later requests of the same chain (never to other requests).
  public typealias RedirectPolicy = EndpointCore.RedirectPolicy
}
