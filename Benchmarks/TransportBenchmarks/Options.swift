import Foundation

/// The command line: `--name value` pairs.
struct Options {
  var base: URL?
  var scratch = URL(fileURLWithPath: NSTemporaryDirectory())
  var rounds = 9
  var diagnosisRounds = 5
  var diagnosisClients = TransportBenchmarks.diagnosisClients
  var window = 2.0
  var connections = 6
  var inFlight = 8
  var load = 20_000
  var loadWarmup = 2_000
  var loadInFlight = 64
  var loadClient = "sdk"
  var only: Set<String> = ["throughput", "memory", "load", "diagnosis"]
  var child: String?
  var profile: String?
  var seconds = 10.0
  var curlConnections = 64
  var curlInFlight = [1, 8, 64]
  var curlTool: String?
  var tlsBase: URL?
  var h2Base: URL?
  var caFile: String?
  var firstRuns = 21
  var largePath = "large-1g.bin"
  var uploadFile: String?
  var firstExecutables: [(name: String, path: String)] = []
  var allocations = false
  var requests = 2_000

  static let usage = """
    usage: TransportBenchmarks --base http://127.0.0.1:PORT [options]
      --scratch DIR        where downloads are written (default: the temporary directory)
      --rounds N           interleaved rounds per comparison (default 9)
      --window SECONDS     length of each measured window (default 2)
      --connections N      maximum connections per host, both clients (default 6, the SDK's)
      --in-flight N        concurrency of the parallel comparison (default 8)
      --load N             requests of the load run (default 20000)
      --load-in-flight N   concurrency of the load run (default 64)
      --load-client NAME   the client of the load run (default sdk; see --profile)
      --only LIST          throughput,memory,load,diagnosis (default: all of these), curl
                           (EndpointCurl vs the URLSession client vs raw URLSession vs the
                           curl tool; scripts/bench-curl.sh runs it), cache (a fresh
                           CacheMiddleware hit and a stored miss vs a network round trip,
                           on both transports)
      --curl-in-flight LIST  concurrencies of the curl comparison (default 1,8,64)
      --curl-connections N maximum connections per host of the Swift clients in the curl
                           comparison and of EndpointCurl elsewhere (default 64)
      --curl-tool PATH     the curl command line tool (default: curl on PATH)
      --tls-base URL       the same server over HTTPS, HTTP/1.1 only (for --only https)
      --h2-base URL        the same server over HTTPS with HTTP/2 (for --only https)
      --ca FILE            the certificate authority of both (for --only https)
      --large-path PATH    the large body's path on --base (default large-1g.bin), for --only
                           large: a download streamed, to a file and an upload from
                           --upload-file through both clients and the curl tool
                           (scripts/bench-large.sh)
      --upload-file FILE   the file uploaded with PUT to /upload.bin; its size is the
                           expected size of every transfer
      --first-runs N       process runs per client of --only first (default 21)
      --first-executable NAME=PATH  also time PATH URL (one request; and PATH alone, its
                           floor) in --only first; may be repeated
                           first: process start to first response, EndpointCurl and the
                           URLSession client in a child process vs one curl tool run
                           (scripts/bench-first-request.sh); https: EndpointCurl vs the curl
                           tool over HTTP/1.1+TLS and HTTP/2, and new handshakes
                           (scripts/bench-https.sh)
      --diagnosis-rounds N rounds of the diagnosis (default 5): raw URLSession, raw through a
                           session delegate, the same with callbacks run in place, the SDK
                           without timeouts, the SDK
      --diagnosis-clients LIST  the clients compared, raw first (default
                           raw,delegate,delegate-inline,sdk-no-timeouts,sdk; also
                           delegate-underlying, delegate-completion)
      --allocations        heap allocations per request of each client, one request at a
                           time, --requests (default 2000) per round (needs the counter that
                           scripts/bench-allocs.sh preloads)
      --profile CLIENT     run one of those clients (or curl: EndpointCurl) alone for
                           --seconds (default 10) at --in-flight (1: sequential), for perf
    The server must serve /doc.json (about 300 bytes of JSON) and /large.bin (50 MiB);
    scripts/bench-transport.sh starts one.
    """

  init(_ arguments: [String]) throws {
    var index = 0
    func value() throws -> String {
      index += 1
      guard index < arguments.count else {
        throw BenchmarkFailure(
          description: "\(arguments[index - 1]) needs a value\n\(Options.usage)")
      }
      return arguments[index]
    }
    func number(_ text: String) throws -> Double {
      guard let number = Double(text), number >= 0 else {
        throw BenchmarkFailure(description: "not a number: \(text)\n\(Options.usage)")
      }
      return number
    }
    while index < arguments.count {
      switch arguments[index] {
      case "--base":
        let text = try value()
        guard let url = URL(string: text), url.scheme != nil else {
          throw BenchmarkFailure(description: "not a URL: \(text)")
        }
        base = url
      case "--scratch": scratch = URL(fileURLWithPath: try value())
      case "--rounds": rounds = max(1, Int(try number(value())))
      case "--diagnosis-clients":
        diagnosisClients = try value().split(separator: ",").map(String.init)
      case "--diagnosis-rounds": diagnosisRounds = max(1, Int(try number(value())))
      case "--window": window = try number(value())
      case "--connections": connections = max(1, Int(try number(value())))
      case "--in-flight": inFlight = max(1, Int(try number(value())))
      case "--load": load = Int(try number(value()))
      case "--load-warmup": loadWarmup = Int(try number(value()))
      case "--load-client": loadClient = try value()
      case "--load-in-flight": loadInFlight = max(1, Int(try number(value())))
      case "--only": only = Set(try value().split(separator: ",").map(String.init))
      case "--child": child = try value()
      case "--profile": profile = try value()
      case "--allocations": allocations = true
      case "--requests": requests = max(1, Int(try number(value())))
      case "--seconds": seconds = try number(value())
      case "--curl-connections": curlConnections = max(1, Int(try number(value())))
      case "--curl-in-flight":
        curlInFlight = try value().split(separator: ",").map { max(1, Int(try number(String($0)))) }
      case "--curl-tool": curlTool = try value()
      case "--tls-base": tlsBase = URL(string: try value())
      case "--h2-base": h2Base = URL(string: try value())
      case "--ca": caFile = try value()
      case "--large-path": largePath = try value()
      case "--upload-file": uploadFile = try value()
      case "--first-runs": firstRuns = max(1, Int(try number(value())))
      case "--first-executable":
        let parts = try value().split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
          throw BenchmarkFailure(description: "--first-executable needs NAME=PATH")
        }
        firstExecutables.append((parts[0], parts[1]))
      case "--help", "-h":
        print(Options.usage)
        exit(0)
      default:
        throw BenchmarkFailure(description: "unknown option \(arguments[index])\n\(Options.usage)")
      }
      index += 1
    }
  }

  /// The arguments that give a child process the same settings.
  var forwarded: [String] {
    [
      "--base", base?.absoluteString ?? "", "--scratch", scratch.path,
      "--connections", String(connections), "--load", String(load),
      "--load-warmup", String(loadWarmup), "--load-in-flight", String(loadInFlight),
      "--load-client", loadClient, "--curl-connections", String(curlConnections),
    ]
  }
}
