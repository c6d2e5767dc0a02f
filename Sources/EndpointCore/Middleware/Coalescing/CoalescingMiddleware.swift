import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Lets identical `GET` and `HEAD` requests in flight at the same time share one exchange.
///
/// A screen that asks for the same resource from five places at once, or a server that answers
/// a burst of clients needing one upstream document, sends one request instead of many:
///
/// ```swift
/// let client = DefaultHTTPClient.make()
///   .with(CoalescingMiddleware(), RetryMiddleware())
/// ```
///
/// Requests are identical when they have the same method, URL, deadline and
/// ``RequestOptions``, and the same values for the fields that make responses differ:
/// ``defaultDistinguishingFields`` (`Authorization`, `Cookie`, `Accept`, `Accept-Encoding`,
/// `Accept-Language`, `Range`) and the names given to the initialiser. Other fields (a request
/// id, say) do not keep requests apart: the exchange is sent with the first caller's request.
/// Requests with a body, every other method, and downloads (each writes its own file) pass
/// through.
///
/// - Every caller gets the whole response and a body of its own, held in memory, with the
///   response's trailer fields. A body over `bufferLimit` is not shared: each caller then
///   sends its request itself.
/// - One caller's cancellation never cancels the others; the shared exchange is cancelled when
///   the last caller waiting for it is.
/// - An error reaches every caller waiting.
///
/// Put it before the middleware that authorizes, retries or logs, so one shared exchange is
/// authorized, retried and logged once.
public struct CoalescingMiddleware: Middleware {
  /// The fields whose values keep otherwise identical requests apart unless told otherwise.
  public static let defaultDistinguishingFields = [
    "Authorization", "Cookie", "Accept", "Accept-Encoding", "Accept-Language", "Range",
  ]

  /// The fields whose values keep requests apart, lowercased.
  public let distinguishingFields: [String]
  /// The largest body shared, in bytes.
  public let bufferLimit: Int
  let flights = CoalescedFlights()

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - distinguishingFields: more fields whose values keep requests apart, beside
  ///     ``defaultDistinguishingFields``.
  ///   - bufferLimit: the largest body shared, in bytes; a larger one is fetched by each
  ///     caller itself.
  public init(distinguishingFields: [String] = [], bufferLimit: Int = 8 * 1024 * 1024) {
    var names: [String] = []
    for name in Self.defaultDistinguishingFields + distinguishingFields {
      let lowered = name.lowercased()
      if !names.contains(lowered) { names.append(lowered) }
    }
    self.distinguishingFields = names
    self.bufferLimit = max(0, bufferLimit)
  }

  /// How many shared exchanges are in flight (for tests and diagnostics).
  public var exchangesInFlight: Int { flights.exchangesInFlight }

  /// How many callers wait for a shared exchange (for tests and diagnostics).
  public var callersWaiting: Int { flights.callersWaiting }

  /// Joins an identical request in flight, or sends this one for everyone who joins it.
  public func intercept(
    _ request: HTTPRequest,
    next: @escaping Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    guard let key = key(for: request) else { return try await next(request) }
    let limit = bufferLimit
    let member = flights.join(key) {
      await CoalescedFlights.exchange(request, next: next, bufferLimit: limit)
    }
    switch await flights.wait(member) {
    case .response(let response, let data, let trailers):
      var body = HTTPBody(data)
      // Every caller reads the trailer fields the shared body ended with.
      if let trailers { body.trailers = { trailers } }
      return (response, body)
    case .failure(let error):
      throw error
    case .tooLarge:
      return try await next(request)
    case .cancelled:
      throw CancellationError()
    }
  }

  func key(for request: HTTPRequest) -> CoalescedFlights.Key? {
    guard request.method == .get || request.method == .head, request.body == nil,
      !TransferContext.isDownload
    else { return nil }
    return CoalescedFlights.Key(
      method: request.method.rawValue,
      url: request.url.absoluteString,
      fields: distinguishingFields.map { request.headerFields.values(for: $0) },
      timeout: request.timeout,
      options: request.options
    )
  }
}

/// The shared exchanges of one ``CoalescingMiddleware`` and the callers waiting for them.
///
/// One lock guards everything: joining, waiting, cancelling and finishing each touch a few
/// dictionary entries.
final class CoalescedFlights: Sendable {
  struct Key: Hashable, Sendable {
    var method: String
    var url: String
    var fields: [[String]]
    var timeout: Duration?
    var options: RequestOptions
  }

  enum Outcome: Sendable {
    case response(HTTPResponse, Data, trailers: HTTPFields?)
    case failure(any Error)
    case tooLarge
    case cancelled
  }

  struct Member: Sendable {
    let flight: Int
    let token: Int
  }

  private struct Flight {
    var key: Key
    var members: Set<Int> = []
    var waiters: [Int: CheckedContinuation<Outcome, Never>] = [:]
    var cancelled: Set<Int> = []
    var outcome: Outcome?
    var task: Task<Void, Never>?
  }

  private struct State {
    var byKey: [Key: Int] = [:]
    var flights: [Int: Flight] = [:]
    var nextID = 0
  }

  private let state = Mutex(State())

  var exchangesInFlight: Int { state.withVisibleLock { $0.byKey.count } }
  var callersWaiting: Int {
    state.withVisibleLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } }
  }

  /// Joins the exchange in flight for `key`, or starts `work` as a new one.
  func join(_ key: Key, work: @escaping @Sendable () async -> Outcome) -> Member {
    let (member, isNew) = state.withVisibleLock { state -> (Member, Bool) in
      state.nextID += 1
      let token = state.nextID
      if let id = state.byKey[key] {
        state.flights[id]?.members.insert(token)
        return (Member(flight: id, token: token), false)
      }
      var flight = Flight(key: key)
      flight.members.insert(token)
      state.byKey[key] = token
      state.flights[token] = flight
      return (Member(flight: token, token: token), true)
    }
    guard isNew else { return member }
    let id = member.flight
    // Not a child of the caller's task: the first caller's cancellation must not end it.
    let task = Task { [self] in
      let outcome = await work()
      finish(id, with: outcome)
    }
    state.withVisibleLock { state in
      if state.flights[id] != nil, state.flights[id]?.outcome == nil {
        state.flights[id]?.task = task
        if state.flights[id]?.members.isEmpty == true { task.cancel() }
      }
    }
    return member
  }

  /// Waits for the outcome of the member's exchange, or `.cancelled` when the calling task is
  /// cancelled first.
  func wait(_ member: Member) async -> Outcome {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
        let ready = state.withVisibleLock { state -> Outcome? in
          guard var flight = state.flights[member.flight] else { return .cancelled }
          if flight.cancelled.remove(member.token) != nil {
            state.flights[member.flight] = flight
            Self.removeIfDone(member.flight, in: &state)
            return .cancelled
          }
          if let outcome = flight.outcome {
            flight.members.remove(member.token)
            state.flights[member.flight] = flight
            Self.removeIfDone(member.flight, in: &state)
            return outcome
          }
          flight.waiters[member.token] = continuation
          state.flights[member.flight] = flight
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      leave(member)
    }
  }

  private func leave(_ member: Member) {
    let (waiter, task) = state.withVisibleLock {
      state -> (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) in
      guard var flight = state.flights[member.flight], flight.outcome == nil,
        flight.members.remove(member.token) != nil
      else { return (nil, nil) }
      let waiter = flight.waiters.removeValue(forKey: member.token)
      if waiter == nil { flight.cancelled.insert(member.token) }
      var abandoned: Task<Void, Never>?
      if flight.members.isEmpty {
        // Nobody waits any more: a later caller starts afresh rather than join a cancelled one.
        if state.byKey[flight.key] == member.flight { state.byKey[flight.key] = nil }
        abandoned = flight.task
      }
      state.flights[member.flight] = flight
      return (waiter, abandoned)
    }
    task?.cancel()
    waiter?.resume(returning: .cancelled)
  }

  private func finish(_ id: Int, with outcome: Outcome) {
    let waiters = state.withVisibleLock { state -> [CheckedContinuation<Outcome, Never>] in
      guard var flight = state.flights[id] else { return [] }
      if state.byKey[flight.key] == id { state.byKey[flight.key] = nil }
      flight.outcome = outcome
      let waiting = Array(flight.waiters.values)
      for token in flight.waiters.keys { flight.members.remove(token) }
      flight.waiters = [:]
      flight.task = nil
      state.flights[id] = flight
      Self.removeIfDone(id, in: &state)
      return waiting
    }
    for waiter in waiters { waiter.resume(returning: outcome) }
  }

  /// Forgets a flight once it has ended and no member still has to read its outcome.
  private static func removeIfDone(_ id: Int, in state: inout State) {
    guard let flight = state.flights[id], flight.outcome != nil, flight.members.isEmpty,
      flight.cancelled.isEmpty
    else { return }
    state.flights[id] = nil
  }

  /// Sends the shared request and reads its whole body, up to `bufferLimit` bytes.
  static func exchange(
    _ request: HTTPRequest,
    next: @escaping Middleware.Next,
    bufferLimit: Int
  ) async -> Outcome {
    do {
      let (response, body) = try await next(request)
      if let length = body.length, length > Int64(bufferLimit) { return .tooLarge }
      var data = Data()
      for try await chunk in body {
        if data.count + chunk.count > bufferLimit { return .tooLarge }
        data.append(chunk)
      }
      return .response(response, data, trailers: body.trailerFields)
    } catch {
      return .failure(error)
    }
  }
}
