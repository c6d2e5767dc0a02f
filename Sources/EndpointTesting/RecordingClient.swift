import EndpointPrimitives
import Foundation
import Synchronization

/// Wraps any ``EndpointCore/HTTPClient`` and keeps every exchange (request and its body, response, body,
/// error and duration) for assertions.
///
/// The response body is passed on as it arrives and copied as the caller reads it, so a streamed
/// body still reaches the caller once and whole.
///
/// ```swift
/// let recorder = RecordingClient(wrapping: URLSessionHTTPClient())
/// let user = try await recorder.call(User.with(id: 42))
/// let exchange = try #require(recorder.exchanges.first)
/// #expect(exchange.request.headerFields["Accept"] == "application/json")
/// #expect(exchange.response?.status == 200)
/// ```
public struct RecordingClient<Base: HTTPClient>: HTTPClient {
  /// The client that sends the requests.
  public let base: Base
  private let log = ExchangeLog()
  private let requestBodyLimit: Int

  /// Creates a recording client.
  ///
  /// - Parameters:
  ///   - base: the client to send requests with.
  ///   - requestBodyLimit: the most bytes of a file request body copied into the record.
  public init(wrapping base: Base, requestBodyLimit: Int = 32 * 1024 * 1024) {
    self.base = base
    self.requestBodyLimit = requestBodyLimit
  }

  /// Every exchange so far, in the order the requests were sent.
  public var exchanges: [RecordedExchange] {
    log.exchanges
  }

  /// Forgets every exchange recorded so far; exchanges still in flight (a body being read) are
  /// no longer recorded.
  public func removeAll() {
    log.removeAll()
  }

  /// Sends `request` with the base client and records the exchange.
  public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    let clock = ContinuousClock()
    let start = clock.now
    let index = log.append(
      RecordedExchange(
        request: request,
        requestBody: Data(),
        response: nil,
        responseBody: Data(),
        error: nil,
        duration: .zero,
        totalDuration: nil,
        isComplete: false
      )
    )
    var sent = request
    switch request.body {
    case nil:
      break
    case let body? where body.data != nil:
      log.update(index) { $0.requestBody = body.data ?? Data() }
    case let body? where body.fileURL != nil:
      // A file body can be read again, so reading it here takes nothing from the transport.
      let data = (try? await body.collect(upTo: requestBodyLimit)) ?? Data()
      log.update(index) { $0.requestBody = data }
    case let body?:
      // A stream can be read once: copy it as the transport reads it.
      sent.body = Tee.body(body) { [log] chunk in
        log.update(index) { $0.requestBody.append(chunk) }
      }
      if let trailers = body.requestTrailers {
        // Called once by the transport after the last chunk: record what it sends.
        sent.body?.requestTrailers = { [log] in
          let fields = trailers()
          log.update(index) { $0.requestTrailerFields = fields }
          return fields
        }
      }
    }
    do {
      let (response, body) = try await base.send(sent)
      let elapsed = start.duration(to: clock.now)
      if let data = body.data {
        log.update(index) { exchange in
          exchange.response = response
          exchange.responseBody = data
          exchange.responseTrailerFields = body.trailerFields
          exchange.duration = elapsed
          exchange.totalDuration = elapsed
          exchange.isComplete = true
          exchange.request = RecordingClient.inMemory(request, exchange.requestBody)
        }
        return (response, body)
      }
      log.update(index) { exchange in
        exchange.response = response
        exchange.duration = elapsed
        exchange.request = RecordingClient.inMemory(request, exchange.requestBody)
      }
      let tee = Tee.body(body) { [log] chunk in
        log.update(index) { $0.responseBody.append(chunk) }
      } onEnd: { [log] error in
        let total = start.duration(to: clock.now)
        let trailers = body.trailerFields
        log.update(index) { exchange in
          exchange.totalDuration = total
          exchange.isComplete = true
          exchange.responseTrailerFields = trailers
          if let error { exchange.error = error }
        }
      }
      return (response, tee)
    } catch {
      let elapsed = start.duration(to: clock.now)
      log.update(index) { exchange in
        exchange.error = error
        exchange.duration = elapsed
        exchange.isComplete = true
        exchange.request = RecordingClient.inMemory(request, exchange.requestBody)
      }
      throw error
    }
  }

  private static func inMemory(_ request: HTTPRequest, _ body: Data) -> HTTPRequest {
    var copy = request
    if request.body != nil { copy.body = HTTPBody(body) }
    return copy
  }
}

/// The exchanges of one recording client and its copies.
///
/// Each exchange is known by a number that never changes, so an exchange still in flight (a
/// body being read) updates its own record, or nothing once ``RecordingClient/removeAll()``
/// has dropped it.
private final class ExchangeLog: Sendable {
  struct State {
    var exchanges: [RecordedExchange] = []
    /// The number of `exchanges[0]`.
    var firstNumber = 0
  }

  let state = Mutex(State())

  var exchanges: [RecordedExchange] {
    state.withVisibleLock { $0.exchanges }
  }

  func append(_ exchange: RecordedExchange) -> Int {
    state.withVisibleLock { state in
      state.exchanges.append(exchange)
      return state.firstNumber + state.exchanges.count - 1
    }
  }

  func update(_ number: Int, _ change: (inout RecordedExchange) -> Void) {
    state.withVisibleLock { state in
      let index = number - state.firstNumber
      guard state.exchanges.indices.contains(index) else { return }
      change(&state.exchanges[index])
    }
  }

  func removeAll() {
    state.withVisibleLock { state in
      state.firstNumber += state.exchanges.count
      state.exchanges.removeAll()
    }
  }
}
