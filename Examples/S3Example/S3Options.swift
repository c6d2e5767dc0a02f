import Foundation

/// What the command line asked for.
struct S3Options: Sendable {
  var endpoint: URL
  var region = "us-east-1"
  var accessKeyID: String?
  var secretAccessKey: String?
  var bucket: String?
  var useURLSession = false
  /// The server answers the first two GETs of a key ending in `slow-down-twice` with
  /// `503 SlowDown` (Examples/s3_server.py does); the retry step needs it.
  var serverSlowsDown = false

  static let usage = """
    Usage: swift run S3Example --endpoint URL [options]

    Runs a tour of S3 calls (bucket, objects, files streamed both ways, listing pages,
    multipart upload, ranged GET, pre-signed URL, typed errors) against an S3-compatible
    server, such as moto on loopback (scripts/s3-example.sh starts one and runs this).

      --endpoint URL        the server, path-style (http://127.0.0.1:5000)
      --region NAME         the signing region (us-east-1)
      --access-key ID       the access key ID (else AWS_ACCESS_KEY_ID)
      --secret-key SECRET   the secret access key (else AWS_SECRET_ACCESS_KEY)
      --bucket NAME         the bucket to create and delete (a fresh name by default)
      --urlsession          send with URLSessionHTTPClient instead of the default client
      --server-slows-down   the server answers the first two GETs of a key ending in
                            slow-down-twice with 503 SlowDown (Examples/s3_server.py does);
                            without it the retry step is skipped
      -h, --help            show this help
    """

  /// Parses the arguments after the program name; `nil` for `--help`.
  static func parse(_ arguments: [String]) throws(UsageError) -> S3Options? {
    var endpoint: URL?
    var options = S3Options(endpoint: URL(fileURLWithPath: "/"))
    var rest = arguments[...]
    func value(_ flag: String) throws(UsageError) -> String {
      guard let value = rest.popFirst(), !value.hasPrefix("--") else {
        throw UsageError("\(flag) needs a value")
      }
      return value
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "-h", "--help": return nil
      case "--endpoint":
        let text = try value(argument)
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""),
          url.host != nil
        else { throw UsageError("--endpoint needs an http(s) URL, not '\(text)'") }
        endpoint = url
      case "--region": options.region = try value(argument)
      case "--access-key": options.accessKeyID = try value(argument)
      case "--secret-key": options.secretAccessKey = try value(argument)
      case "--bucket": options.bucket = try value(argument)
      case "--urlsession": options.useURLSession = true
      case "--server-slows-down": options.serverSlowsDown = true
      default: throw UsageError("unknown argument '\(argument)'")
      }
    }
    guard let endpoint else { throw UsageError("--endpoint URL is required") }
    options.endpoint = endpoint
    return options
  }
}

/// A command line the example cannot run.
struct UsageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
