extension HTTPResponse {
  /// How ``CacheMiddleware`` served this response, read from its `Cache-Status` field; `nil`
  /// when it did not pass the middleware.
  public var cacheStatus: CacheStatus? { CacheStatus(self) }

  /// This response with `status` added to its `Cache-Status` field, after any upstream
  /// cache's member (RFC 9211 §2).
  func adding(_ status: CacheStatus) -> HTTPResponse {
    var response = self
    response.headerFields.append(checkedValue: status.description, for: "Cache-Status")
    return response
  }
}
