// The README's first command: `swift run EndpointExample`.
//
// With no arguments the tour runs on an in-memory fake backend (EndpointTesting's StubClient),
// so it works offline. With `--base-url URL` it runs the same tour over the platform's default
// client (DefaultHTTPClient: URLSession on Apple platforms, libcurl on Linux) against a real
// server, such as `python3 Examples/todo_server.py 8080`.

import EndpointDefaultClient
import Foundation

let options: ExampleOptions
do {
  options = try ExampleOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(
    Data("EndpointExample: error: \(error)\n\n\(ExampleOptions.usage)\n".utf8))
  exit(64)  // EX_USAGE
}

/// Runs the tour; returns the process's exit status.
func runTour(client: some HTTPClient, api: URL, options: ExampleOptions) async -> Int32 {
  var tour = Tour(client: client, api: api)
  do {
    try await tour.run()
    return 0
  } catch {
    // A refused connection is transient on every transport.
    if case .server(let url) = options, (error as? TransportFailure)?.isTransient == true {
      FileHandle.standardError.write(
        Data(
          """
          Is the todo server running at \(url)? Start it with:
            python3 Examples/todo_server.py \(url.port ?? 8080) &

          """.utf8))
    }
    return 1
  }
}

switch options {
case .help:
  print(ExampleOptions.usage)
case .fake:
  print("Endpoint tour on an in-memory fake backend (EndpointTesting's StubClient): no network.")
  print("Base URL \(FakeBackend.baseURL); nothing is sent there.")
  exit(await runTour(client: FakeBackend.client(), api: FakeBackend.baseURL, options: options))
case .server(let url):
  let client = DefaultHTTPClient.make()
  print("Endpoint tour over \(type(of: client.base)) (DefaultHTTPClient) against \(url).")
  exit(await runTour(client: client, api: url, options: options))
}
