extension HTTPClient {
  /// Sends the endpoint's request and calls `completion` once with the parsed resource or the
  /// error, in the completion-handler style.
  ///
  /// ```swift
  /// client.load(User.with(id: 42)) { result in
  ///   switch result {
  ///   case .success(let user): show(user)
  ///   case .failure(let error): report(error)
  ///   }
  /// }
  /// ```
  /// - Parameters:
  ///   - endpoint: what to call.
  ///   - bodyLimit: the largest body read, as in ``/EndpointCore/HTTPClient/call(_:bodyLimit:)``.
  ///   - completion: called exactly once, on a background thread; with `CancellationError`
  ///     when the task was cancelled first.
  /// - Returns: the task that sends the request: `cancel()` it to stop the request, and read
  ///   `isCancelled`.
  @discardableResult
  public func load<Resource>(
    _ endpoint: Endpoint<Resource>,
    bodyLimit: Int = defaultBodyLimit,
    completion: @escaping @Sendable (Result<Resource, any Error>) -> Void
  ) -> Task<Void, Never> {
    let task = Task {
      do {
        let (response, body) = try await send(try endpoint.request())
        let data = try await body.collect(upTo: bodyLimit)
        let result = Result { try endpoint.parse(response, data) }
        completion(result)
      } catch {
        completion(.failure(error))
      }
    }
    return task
  }
}

extension HTTPClient {
  /// TinyNetworking's name for ``call(_:bodyLimit:)``, kept so its code compiles as written:
  /// the async form of ``load(_:bodyLimit:completion:)``.
  ///
  /// ```swift
  /// let user = try await URLSession.shared.load(userInfo(login: "objcio"))
  /// ```
  /// New code writes `call`, which also takes a body limit.
  /// - Parameter endpoint: what to call.
  /// - Returns: the resource the endpoint's parser made.
  /// - Throws: what ``call(_:bodyLimit:)`` throws.
  public func load<Resource>(_ endpoint: Endpoint<Resource>) async throws -> Resource {
    try await call(endpoint)
  }
}
