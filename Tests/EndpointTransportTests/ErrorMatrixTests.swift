import EndpointCore
import EndpointCurl
import EndpointDefaultClient
import EndpointTesting
import EndpointTransport
import Foundation
import Testing

/// Every failure a client can meet, sent through every client: the URLSession client, the curl
/// client, `DefaultHTTPClient`, each of them behind middleware, and the stub client where the
/// failure is one a test double meets too. Each throws the same type with the same kind.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct ErrorMatrixTests {
  /// A client under test, as a user would make it.
  enum Client: String, CaseIterable, CustomStringConvertible {
    case urlSession, curl, defaultClient
    case urlSessionBehindMiddleware, curlBehindMiddleware, defaultClientBehindMiddleware

    var description: String { rawValue }

    /// The client with these settings, and how to shut it down.
    func make(
      idleTimeout: Duration? = .seconds(10),
      deadline: Duration? = nil,
      redirects: RedirectPolicy = .followDefault,
      maximumResponseSize: Int? = nil
    ) throws -> (client: any HTTPClient, shutdown: @Sendable () async -> Void) {
      let base: any HTTPClient
      let shutdown: @Sendable () async -> Void
      switch self {
      case .urlSession, .urlSessionBehindMiddleware:
        let client = URLSessionHTTPClient(
          configuration: .init(
            idleTimeout: idleTimeout, deadline: deadline, redirectPolicy: redirects,
            maximumResponseSize: maximumResponseSize))
        (base, shutdown) = (client, { await client.shutdown() })
      case .curl, .curlBehindMiddleware:
        let client = try CurlHTTPClient(
          configuration: .init(
            idleTimeout: idleTimeout, deadline: deadline, redirectPolicy: redirects,
            maximumResponseSize: maximumResponseSize))
        (base, shutdown) = (client, { await client.shutdown() })
      case .defaultClient, .defaultClientBehindMiddleware:
        let client = DefaultHTTPClient.make(
          idleTimeout: idleTimeout, deadline: deadline, redirectPolicy: redirects,
          maximumResponseSize: maximumResponseSize)
        (base, shutdown) = (client, { await client.shutdown() })
      }
      switch self {
      case .urlSession, .curl, .defaultClient:
        return (base, shutdown)
      case .urlSessionBehindMiddleware, .curlBehindMiddleware, .defaultClientBehindMiddleware:
        let chain: [any Middleware] = [
          try DefaultHeadersMiddleware(["X-Matrix": "1"]),
          RetryMiddleware(policy: RetryPolicy(maxAttempts: 1)),
          LoggingMiddleware(sink: { _ in }),
        ]
        return (AnyClient(base).with(chain), shutdown)
      }
    }
  }

  /// The error of sending `request` and reading its whole body.
  private func failure(
    of request: HTTPRequest, through client: any HTTPClient
  ) async -> (any Error)? {
    do {
      let (response, body) = try await client.send(request)
      let bytes = try await body.collect(upTo: .max)
      Issue.record("\(request.url) gave \(response.status) with \(bytes.count) bytes")
      return nil
    } catch {
      return error
    }
  }

  /// The error of a GET of `url` through a client that is shut down afterwards.
  private func failureOfGet(
    _ url: URL, through made: (client: any HTTPClient, shutdown: @Sendable () async -> Void)
  ) async -> (any Error)? {
    let error = await failure(of: HTTPRequest(method: .get, url: url), through: made.client)
    await made.shutdown()
    return error
  }

  /// A PUT to the echo endpoint whose streamed body is the ten bytes `ten bytes!`, declaring
  /// `length`.
  private func streamedPut(declaring length: Int64) throws -> HTTPRequest {
    let chunks = AsyncStream<Data> { continuation in
      continuation.yield(Data("ten bytes!".utf8))
      continuation.finish()
    }
    return HTTPRequest(
      method: .put, url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(chunks, length: length))
  }

  private func expect(
    _ error: (any Error)?, is kind: TransportFailure.Kind, _ client: Client,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let failure = error as? TransportFailure
    #expect(
      failure != nil, "\(client): \(String(describing: error))", sourceLocation: sourceLocation)
    #expect(
      failure?.kind == kind, "\(client): \(String(describing: error))",
      sourceLocation: sourceLocation)
  }

  @Test(arguments: Client.allCases)
  func aRefusedConnection(client: Client) async throws {
    let url = try #require(URL(string: "http://127.0.0.1:9/refused"))
    let error = await failureOfGet(url, through: try client.make())
    expect(error, is: .cannotConnect, client)
    #expect((error as? TransportFailure)?.isTransient == true)
    #expect((error as? TransportFailure)?.url == url)
  }

  @Test(arguments: Client.allCases)
  func aServerThatNeverAnswers(client: Client) async throws {
    let error = await failureOfGet(
      try TestServers.fault.adding("/silent"),
      through: try client.make(idleTimeout: .milliseconds(500)))
    expect(error, is: .idleTimeout, client)
    #expect((error as? TransportFailure)?.timeout == .milliseconds(500))
  }

  @Test(arguments: Client.allCases)
  func aBodyThatOutlastsTheDeadline(client: Client) async throws {
    let error = await failureOfGet(
      try TestServers.fault.adding("/slow-body?chunks=50&interval_ms=200"),
      through: try client.make(idleTimeout: .seconds(10), deadline: .seconds(1)))
    expect(error, is: .deadlineExceeded, client)
  }

  @Test(arguments: Client.allCases)
  func aBodyThatOutlastsARequestDeadlineScope(client: Client) async throws {
    let made = try client.make(idleTimeout: .seconds(10), deadline: .seconds(30))
    let request = HTTPRequest(
      method: .get, url: try TestServers.fault.adding("/slow-body?chunks=50&interval_ms=200"),
      timeout: .seconds(30))
    let error = await withRequestDeadline(after: .seconds(1)) {
      await failure(of: request, through: made.client)
    }
    await made.shutdown()
    expect(error, is: .deadlineExceeded, client)
    #expect(((error as? TransportFailure)?.timeout ?? .zero) <= .seconds(1))
  }

  @Test(arguments: Client.allCases)
  func aRequestStartedAfterTheScopesEnd(client: Client) async throws {
    let url = try TestServers.fault.adding("/slow-body?chunks=50&interval_ms=200")
    let made = try client.make(idleTimeout: .seconds(10))
    let error = await withRequestDeadline(after: .zero) {
      await failure(of: HTTPRequest(method: .get, url: url), through: made.client)
    }
    await made.shutdown()
    expect(error, is: .deadlineExceeded, client)
  }

  @Test(arguments: Client.allCases)
  func aBodyOverTheSizeLimit(client: Client) async throws {
    let error = await failureOfGet(
      try TestServers.fault.adding("/large?bytes=100000"),
      through: try client.make(maximumResponseSize: 1000))
    expect(error, is: .responseTooLarge, client)
  }

  @Test(arguments: Client.allCases)
  func anUnreadableStatusLine(client: Client) async throws {
    let error = await failureOfGet(
      try TestServers.fault.adding("/bad-status"), through: try client.make())
    expect(error, is: .malformedResponse, client)
  }

  @Test(arguments: Client.allCases)
  func moreRedirectsThanAllowed(client: Client) async throws {
    let error = await failureOfGet(
      try TestServers.fault.adding("/redirect-chain?hops=3"),
      through: try client.make(redirects: .follow(upTo: 1)))
    expect(error, is: .tooManyRedirects, client)
  }

  @Test(arguments: Client.allCases)
  func aConnectionResetBeforeAnyAnswer(client: Client) async throws {
    let error = await failureOfGet(
      try TestServers.fault.adding("/reset"), through: try client.make())
    expect(error, is: .connectionLost, client)
  }

  @Test(arguments: Client.allCases)
  func aBodyCutShortOfItsContentLength(client: Client) async throws {
    let error = await failureOfGet(
      try TestServers.fault.adding("/truncated"), through: try client.make())
    expect(error, is: .connectionLost, client)
  }

  @Test(arguments: Client.allCases)
  func aServerFromAnUnknownAuthority(client: Client) async throws {
    let error = await failureOfGet(
      try TestServers.https.adding("/get"), through: try client.make())
    expect(error, is: .tls, client)
    #expect((error as? TransportFailure)?.isTransient == false)
  }

  @Test(arguments: Client.allCases)
  func aRequestBodyShorterThanItsDeclaredLength(client: Client) async throws {
    let (made, shutdown) = try client.make()
    let request = try streamedPut(declaring: 100)
    let error = await failure(of: request, through: made)
    expect(error, is: .bodyLengthMismatch, client)
    #expect((error as? TransportFailure)?.declaredLength == 100)
    await shutdown()
  }

  @Test(arguments: Client.allCases)
  func aClientThatWasShutDown(client: Client) async throws {
    let (made, shutdown) = try client.make()
    await shutdown()
    let url = try TestServers.fault.adding("/echo")
    let error = await failure(of: HTTPRequest(method: .get, url: url), through: made)
    expect(error, is: .shutDown, client)
  }

  @Test(arguments: Client.allCases)
  func aURLThatIsNotHTTPIsAnInvalidRequest(client: Client) async throws {
    let (made, shutdown) = try client.make()
    let url = try #require(URL(string: "ftp://127.0.0.1/file"))
    let error = await failure(of: HTTPRequest(method: .get, url: url), through: made)
    let invalid = try #require(error as? InvalidRequest, "\(client): \(String(describing: error))")
    #expect(invalid.kind == .url)
    await shutdown()
  }

  @Test(arguments: Client.allCases)
  func aRetryBudgetTooShortForTheNextWait(client: Client) async throws {
    let (made, shutdown) = try client.make()
    // A transient failure, and a first wait (10 s at the top of the jitter) longer than the
    // request's whole timeout: the middleware gives up at once instead of waiting.
    let retrying = AnyClient(made).with(
      RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, baseDelay: .seconds(10)), random: { 1 }))
    let url = try #require(URL(string: "http://127.0.0.1:9/refused"))
    let error = await failure(
      of: HTTPRequest(method: .get, url: url, timeout: .seconds(2)), through: retrying)
    await shutdown()
    expect(error, is: .retryBudgetExhausted, client)
    let failure = error as? TransportFailure
    #expect(failure?.isTransient == false)
    #expect(failure?.timeout == .seconds(2))
    #expect((failure?.underlyingError as? TransportFailure)?.kind == .cannotConnect)
  }

  @Test(arguments: Client.allCases)
  func aStreamedBodySentTwice(client: Client) async throws {
    let (made, shutdown) = try client.make()
    let request = try streamedPut(declaring: 10)
    let (response, body) = try await made.send(request)
    #expect(response.status == 200)
    _ = try await body.collect(upTo: .max)
    let error = await failure(of: request, through: made)
    await shutdown()
    let invalid = try #require(error as? InvalidRequest, "\(client): \(String(describing: error))")
    #expect(invalid.kind == .bodyAlreadyConsumed)
  }

  /// The failures a test double meets itself are the same as a transport's: a body over the
  /// caller's limit, and a download that cannot be saved.
  @Test(arguments: [nil] + Client.allCases.map(Optional.some))
  func theTestDoublesFailAlike(client: Client?) async throws {
    let url = try TestServers.fault.adding("/large?bytes=5000")
    let made: any HTTPClient
    let shutdown: @Sendable () async -> Void
    if let client {
      (made, shutdown) = try client.make()
    } else {
      let stub = StubClient(baseURL: try TestServers.fault.adding("/"))
      stub.on(.get, "/large").reply(.data(Data(count: 5000)))
      (made, shutdown) = (stub, {})
    }
    let endpoint = Endpoint(url: url, parser: .data)
    let tooLarge = await #expect(throws: TransportFailure.self, "\(String(describing: client))") {
      _ = try await made.call(endpoint, bodyLimit: 1000)
    }
    #expect(tooLarge?.kind == .responseTooLarge)
    #expect(tooLarge?.limit == 1000)
    await shutdown()
  }
}
