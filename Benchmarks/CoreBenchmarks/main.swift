// Compares the cost of Endpoint's building and parsing with the code a user would write by hand.
//
// Both sides of each comparison run in the same process, in interleaved rounds (their order
// alternating), so drift in machine load hits both alike. Each round times `iterations` calls;
// the table shows the median time per call of each side and the median of the per-round ratios.

import EndpointJSON
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// MARK: - Harness

@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

struct Comparison {
  let name: String
  let target: Double
  let endpoint: () throws -> Void
  let baseline: () throws -> Void
}

struct Result {
  let name: String
  let target: Double
  let endpointNanos: Double
  let baselineNanos: Double
  let ratio: Double
}

func nanosPerCall(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  for _ in 0..<iterations { try body() }
  let elapsed = clock.now - start
  let nanos =
    Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
  return nanos / Double(iterations)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func run(_ comparison: Comparison, rounds: Int, iterations: Int) throws -> Result {
  // Warm up caches, lazy initialisation and the allocator before measuring.
  _ = try nanosPerCall(iterations, comparison.endpoint)
  _ = try nanosPerCall(iterations, comparison.baseline)
  var endpointTimes: [Double] = []
  var baselineTimes: [Double] = []
  var ratios: [Double] = []
  for round in 0..<rounds {
    let endpoint: Double
    let baseline: Double
    if round % 2 == 0 {
      endpoint = try nanosPerCall(iterations, comparison.endpoint)
      baseline = try nanosPerCall(iterations, comparison.baseline)
    } else {
      baseline = try nanosPerCall(iterations, comparison.baseline)
      endpoint = try nanosPerCall(iterations, comparison.endpoint)
    }
    endpointTimes.append(endpoint)
    baselineTimes.append(baseline)
    ratios.append(endpoint / baseline)
  }
  return Result(
    name: comparison.name,
    target: comparison.target,
    endpointNanos: median(endpointTimes),
    baselineNanos: median(baselineTimes),
    ratio: median(ratios)
  )
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return right ? padding + text : text + padding
}

func format(_ value: Double, decimals: Int) -> String {
  if decimals == 0 { return String(Int(value.rounded())) }
  let scale = pow(10, Double(decimals))
  let rounded = (value * scale).rounded() / scale
  var text = String(rounded)
  if let dot = text.firstIndex(of: ".") {
    let have = text.distance(from: dot, to: text.endIndex) - 1
    if have < decimals { text += String(repeating: "0", count: decimals - have) }
  }
  return text
}

struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
}

// MARK: - Fixtures

struct Repository: Decodable, Equatable, Sendable {
  struct Owner: Decodable, Equatable, Sendable {
    var login: String
    var id: Int
    var siteAdmin: Bool

    enum CodingKeys: String, CodingKey {
      case login, id
      case siteAdmin = "site_admin"
    }
  }

  var id: Int
  var name: String
  var fullName: String
  var isPrivate: Bool
  var owner: Owner
  var description: String?
  var fork: Bool
  var stargazersCount: Int
  var language: String?
  var topics: [String]

  enum CodingKeys: String, CodingKey {
    case id, name, owner, description, fork, language, topics
    case fullName = "full_name"
    case isPrivate = "private"
    case stargazersCount = "stargazers_count"
  }
}

let repositoryJSON = Data(
  """
  {"id":1296269,"name":"Hello-World","full_name":"octocat/Hello-World","private":false,\
  "owner":{"login":"octocat","id":1,"site_admin":false},\
  "description":"This is your first repository, made to try the API.","fork":false,\
  "stargazers_count":80,"language":"Swift","topics":["octocat","api","example"]}
  """.utf8
)

guard let base = URL(string: "https://api.example.com/v1") else {
  throw BenchmarkFailure(description: "the base URL does not parse")
}
/// Hands out logins in turn, so the optimiser cannot fold the interpolated segment into a
/// constant.
struct Logins {
  private let all = ["octocat", "swiftlang", "apple"]
  private var index = 0

  mutating func next() -> String {
    index = (index + 1) % all.count
    return all[index]
  }
}

let query = [
  URLQueryItem(name: "page", value: "2"),
  URLQueryItem(name: "per_page", value: "50"),
  URLQueryItem(name: "sort", value: "updated"),
]
let headers = ["X-Request-ID": "4f1c2a", "User-Agent": "endpoint-bench/1.0"]

func endpointRequest(login: String) throws -> HTTPRequest {
  let endpoint = Endpoint<[Repository]>(
    json: .get,
    path: "users/\(login)/repos",
    relativeTo: base,
    query: query,
    headers: headers
  )
  return try endpoint.request()
}

func handWrittenRequest(login: String) throws -> URLRequest {
  guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
    throw BenchmarkFailure(description: "the base URL has no components")
  }
  components.path += "/users/\(login)/repos"
  components.queryItems = query
  guard let url = components.url else {
    throw BenchmarkFailure(description: "URLComponents gave no URL")
  }
  var request = URLRequest(url: url)
  request.httpMethod = "GET"
  request.setValue("4f1c2a", forHTTPHeaderField: "X-Request-ID")
  request.setValue("endpoint-bench/1.0", forHTTPHeaderField: "User-Agent")
  request.setValue("application/json", forHTTPHeaderField: "Accept")
  return request
}

let repositoryEndpoint = Endpoint<Repository>(json: .get, path: "repos/octocat/x", relativeTo: base)
let okResponse = HTTPResponse(status: 200)
let sharedDecoder = JSONDecoder()

struct StatusFailure: Error {
  let status: Int
}

func decodeByHand(_ response: HTTPResponse, _ body: Data) throws -> Repository {
  guard (200..<300).contains(response.status) else { throw StatusFailure(status: response.status) }
  return try sharedDecoder.decode(Repository.self, from: body)
}

// MARK: - Checks that both sides do the same work

let built = try endpointRequest(login: "octocat")
let handBuilt = try handWrittenRequest(login: "octocat")
guard built.url.absoluteString == handBuilt.url?.absoluteString,
  built.headerFields["Accept"] == handBuilt.value(forHTTPHeaderField: "Accept"),
  built.headerFields.count == handBuilt.allHTTPHeaderFields?.count
else {
  throw BenchmarkFailure(
    description: "the two requests differ: \(built.url) \(built.headerFields) vs "
      + "\(String(describing: handBuilt.url)) \(String(describing: handBuilt.allHTTPHeaderFields))"
  )
}
guard
  try repositoryEndpoint.parse(okResponse, repositoryJSON)
    == decodeByHand(okResponse, repositoryJSON)
else {
  throw BenchmarkFailure(description: "the two parsers disagree")
}

// MARK: - Run

let arguments = CommandLine.arguments.dropFirst()
// `--profile build|parse [calls]` runs only Endpoint's side, for a profiler such as `perf`.
if arguments.first == "--profile" {
  let calls = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 2_000_000
  var logins = Logins()
  switch arguments.dropFirst().first {
  case "build":
    for _ in 0..<calls { blackHole(try endpointRequest(login: logins.next())) }
  case "parse":
    for _ in 0..<calls { blackHole(try repositoryEndpoint.parse(okResponse, repositoryJSON)) }
  default:
    throw BenchmarkFailure(description: "--profile takes build or parse")
  }
  exit(0)
}
let rounds = arguments.first.flatMap { Int($0) } ?? 61
let iterations = arguments.dropFirst().first.flatMap { Int($0) } ?? 5_000

var endpointLogins = Logins()
var handLogins = Logins()
let comparisons = [
  Comparison(
    name: "build Endpoint + HTTPRequest vs URLComponents + URLRequest",
    target: 1.0,
    endpoint: { blackHole(try endpointRequest(login: endpointLogins.next())) },
    baseline: { blackHole(try handWrittenRequest(login: handLogins.next())) }
  ),
  Comparison(
    name: "parse \(repositoryJSON.count)-byte JSON vs status check + shared JSONDecoder",
    target: 1.05,
    endpoint: { blackHole(try repositoryEndpoint.parse(okResponse, repositoryJSON)) },
    baseline: { blackHole(try decodeByHand(okResponse, repositoryJSON)) }
  ),
]

print("CoreBenchmarks: \(rounds) interleaved rounds × \(iterations) calls; medians")
let results = try comparisons.map { try run($0, rounds: rounds, iterations: iterations) }
let nameWidth = results.map(\.name.count).max() ?? 0
print(
  pad("benchmark", nameWidth) + " | " + pad("endpoint", 11, right: true) + " | "
    + pad("by hand", 11, right: true) + " | " + pad("ratio", 6, right: true) + " | target"
)
print(String(repeating: "-", count: nameWidth + 53))
for result in results {
  let verdict = result.ratio <= result.target ? "met" : "MISSED"
  print(
    pad(result.name, nameWidth) + " | "
      + pad(format(result.endpointNanos, decimals: 0) + " ns", 11, right: true) + " | "
      + pad(format(result.baselineNanos, decimals: 0) + " ns", 11, right: true) + " | "
      + pad(format(result.ratio, decimals: 2) + "×", 6, right: true) + " | ≤ "
      + format(result.target, decimals: 2) + "× \(verdict)"
  )
}

// MARK: - Middleware cost

/// A client that answers at once from memory: what is left to time is the middleware's own work.
struct InstantClient: HTTPClient {
  let body = Data(#"{"ok":true}"#.utf8)

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    (HTTPResponse(status: 200), HTTPBody(body))
  }
}

func asyncNanosPerCall(_ iterations: Int, _ body: () async throws -> Void) async rethrows
  -> Double
{
  let clock = ContinuousClock()
  let start = clock.now
  for _ in 0..<iterations { try await body() }
  let elapsed = clock.now - start
  let nanos =
    Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
  return nanos / Double(iterations)
}

// An uncoalesced call (nothing else in flight) through CoalescingMiddleware, against the same
// call without it: the price a request pays for the middleware when there is nothing to share.
// Compare the added time with a loopback round trip (scripts/bench-transport.sh).
let bare = InstantClient()
let coalesced = InstantClient().with(CoalescingMiddleware())
let coalescingRequest = HTTPRequest(
  method: .get,
  url: URL(string: "https://api.example.com/v1/catalog")!
)
let asyncIterations = max(1, iterations / 5)
_ = try await asyncNanosPerCall(asyncIterations) {
  blackHole(try await coalesced.send(coalescingRequest).1.collect())
}
var withTimes: [Double] = []
var withoutTimes: [Double] = []
var coalescingRatios: [Double] = []
for round in 0..<rounds {
  let with: Double
  let without: Double
  if round % 2 == 0 {
    with = try await asyncNanosPerCall(asyncIterations) {
      blackHole(try await coalesced.send(coalescingRequest).1.collect())
    }
    without = try await asyncNanosPerCall(asyncIterations) {
      blackHole(try await bare.send(coalescingRequest).1.collect())
    }
  } else {
    without = try await asyncNanosPerCall(asyncIterations) {
      blackHole(try await bare.send(coalescingRequest).1.collect())
    }
    with = try await asyncNanosPerCall(asyncIterations) {
      blackHole(try await coalesced.send(coalescingRequest).1.collect())
    }
  }
  withTimes.append(with)
  withoutTimes.append(without)
  coalescingRatios.append(with / without)
}
let added = median(withTimes) - median(withoutTimes)
print()
print(
  "uncoalesced call through CoalescingMiddleware vs without it (in-memory client): "
    + format(median(withTimes), decimals: 0) + " ns vs "
    + format(median(withoutTimes), decimals: 0) + " ns, ratio "
    + format(median(coalescingRatios), decimals: 2) + "×; added "
    + format(added, decimals: 0) + " ns per call"
)
