import EndpointCore
import EndpointPrimitives
import EndpointTestSupport
import Synchronization
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A time the tests move by hand.
final class TestNow: Sendable {
  private let date = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

  var now: Date { date.withVisibleLock { $0 } }

  var provider: @Sendable () -> Date { { [self] in self.now } }

  func advance(_ seconds: Double) {
    date.withVisibleLock { $0 = $0.addingTimeInterval(seconds) }
  }

  /// `now` plus `offset` seconds as an HTTP date.
  func httpDate(_ offset: Double = 0) -> String {
    HTTPDateText.format(now.addingTimeInterval(offset))
  }
}

/// Writes IMF-fixdates for test responses.
enum HTTPDateText {
  static func format(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    let weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
    let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(names[weekday]), \(two(day)) \(months[month - 1]) \(year) "
      + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
  }
}

/// A cache in front of a scripted origin, on a manual clock.
struct CacheHarness {
  let clock = TestNow()
  let origin: ScriptedClient
  let cache: CacheMiddleware
  let client: MiddlewareClient<ScriptedClient>

  init(
    store: any CacheStore = CacheMiddleware.memoryStore(),
    maximumBodySize: Int = 1024 * 1024,
    heuristicLimit: Duration = .seconds(86_400),
    origin:
      @escaping @Sendable (HTTPRequest, Int, TestNow) async throws -> (
        HTTPResponse, HTTPBody
      )
  ) {
    let clock = clock
    self.origin = ScriptedClient { request, index in try await origin(request, index, clock) }
    cache = CacheMiddleware(
      store: store, maximumBodySize: maximumBodySize, heuristicLimit: heuristicLimit,
      now: clock.provider)
    client = self.origin.with(cache)
  }

  /// Answers every request with `status`, `headers` and a body naming the request's index.
  init(status: Int = 200, headers: [(String, String)], maximumBodySize: Int = 1024 * 1024) {
    self.init(maximumBodySize: maximumBodySize) { _, index, _ in
      reply(status, headers: headers, body: "v\(index)")
    }
  }

  /// Sends a request and reads its body.
  func send(
    _ method: HTTPMethod = .get,
    _ url: String = "https://api.example.com/items",
    headers: [(String, String)] = []
  ) async throws -> (HTTPResponse, String) {
    var fields = HTTPFields()
    for (name, value) in headers { try fields.append(value, for: name) }
    let (response, body) = try await client.send(
      HTTPRequest(method: method, url: testURL(url), headerFields: fields))
    return (response, String(decoding: try await body.collect(), as: UTF8.self))
  }

  /// The outcome and body of a `GET`.
  func get(
    _ url: String = "https://api.example.com/items",
    headers: [(String, String)] = []
  ) async throws -> (CacheOutcome?, String) {
    let (response, body) = try await send(.get, url, headers: headers)
    return (response.cacheStatus?.outcome, body)
  }
}

/// The two stores every conformance test runs against.
enum StoreKind: String, CaseIterable, CustomStringConvertible, Sendable {
  case memory, disk

  var description: String { rawValue }

  /// Runs `body` with a new store of this kind (the disk store in a temporary directory,
  /// removed afterwards).
  func run(_ body: (any CacheStore) async throws -> Void) async throws {
    switch self {
    case .memory:
      try await body(CacheMiddleware.memoryStore())
    case .disk:
      try await withTemporaryDirectory { directory in
        try await body(try CacheMiddleware.diskStore(directory: directory))
      }
    }
  }
}
