import Foundation

/// What the command line asked for.
enum ExampleOptions: Equatable {
  /// No arguments: the in-memory fake backend.
  case fake
  /// `--base-url URL`: a real server over the URLSession transport.
  case server(URL)
  /// `--help`.
  case help

  static let usage = """
    Usage: swift run EndpointExample [--base-url URL]

      (no arguments)    run the tour on an in-memory fake backend: offline, no set-up
      --base-url URL    run the same tour over URLSession against a todo server, such as
                        the one in Examples/todo_server.py:
                          python3 Examples/todo_server.py 8080 &
                          swift run EndpointExample --base-url http://127.0.0.1:8080
      -h, --help        show this help
    """

  /// Parses the arguments after the program name.
  /// - Throws: ``UsageError`` naming what was wrong.
  static func parse(_ arguments: [String]) throws(UsageError) -> ExampleOptions {
    switch arguments.first {
    case nil:
      return .fake
    case "-h", "--help":
      guard arguments.count == 1 else { throw UsageError("--help takes no other arguments") }
      return .help
    case "--base-url":
      guard arguments.count >= 2 else { throw UsageError("--base-url needs a URL") }
      guard arguments.count == 2 else {
        throw UsageError("unexpected argument '\(arguments[2])' after the URL")
      }
      return .server(try baseURL(arguments[1]))
    case let other?:
      if other.hasPrefix("--base-url=") {
        guard arguments.count == 1 else {
          throw UsageError("unexpected argument '\(arguments[1])' after the URL")
        }
        return .server(try baseURL(String(other.dropFirst("--base-url=".count))))
      }
      throw UsageError("unknown argument '\(other)'")
    }
  }

  /// An `http` or `https` URL with a host; a path is kept and gets a trailing slash so that
  /// relative endpoint paths resolve under it.
  private static func baseURL(_ text: String) throws(UsageError) -> URL {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
    else {
      throw UsageError("'\(text)' is not an http or https URL with a host")
    }
    return url
  }
}

/// A command line the example does not understand.
struct UsageError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
