import EndpointCurl
import EndpointTransport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child that moves one large body and exits: `large-curl-stream`, `large-curl-file`,
/// `large-curl-write` (streamed and written to a file by the caller),
/// `large-curl-upload` and the same with `urlsession`. Streams are read chunk by chunk and
/// dropped; downloads go to a file in `--scratch`; uploads send `--upload-file` with `PUT` to
/// `/upload.bin`. Exits with an error unless the whole body arrived (or was accepted).
func runLargeBodyChild(_ mode: String, options: Options, base: URL) async throws {
  guard let file = options.uploadFile else {
    throw BenchmarkFailure(description: "\(mode) needs --upload-file (the body's size)")
  }
  let expected = try fileSize(URL(fileURLWithPath: file))
  let parts = mode.split(separator: "-")
  guard parts.count == 3 else { throw BenchmarkFailure(description: "unknown mode \(mode)") }
  let client: any HTTPTransferClient
  if parts[1] == "curl" {
    var configuration = CurlHTTPClient.Configuration()
    configuration.maximumResponseSize = nil
    configuration.deadline = nil
    // Over HTTPS (the HTTP/2 server): the benchmark's certificate authority is trusted.
    if let ca = options.caFile, base.scheme == "https" {
      configuration.tls = .init(caBundlePath: ca, requiresTLS13: true)
    }
    client = try CurlHTTPClient(configuration: configuration)
  } else {
    var configuration = URLSessionHTTPClient.Configuration()
    configuration.maximumResponseSize = nil
    configuration.deadline = nil
    client = URLSessionHTTPClient(configuration: configuration)
  }
  let download = base.appendingPathComponent(options.largePath)
  var bytes: Int64 = 0
  switch parts[2] {
  case "stream":
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: download))
    guard response.status == 200 else {
      throw BenchmarkFailure(description: "stream answered \(response.status)")
    }
    for try await chunk in body { bytes += Int64(chunk.count) }
  case "file":
    // Left for the parent to delete after the run is timed, as the curl tool's file is:
    // deleting 1 GiB costs about 0.15 s, which neither side's timing should include.
    let destination = options.scratch.appendingPathComponent("\(mode).bin")
    _ = try await client.download(
      HTTPRequest(method: .get, url: download),
      to: destination,
      accepting: .success,
      progress: nil
    )
    bytes = try fileSize(destination)
  case "write":
    // What a caller would write without `download(_:to:)`: the streamed body, each chunk
    // written to a file with `write(2)` as it arrives.
    let destination = options.scratch.appendingPathComponent("\(mode).bin")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: download))
    guard response.status == 200 else {
      throw BenchmarkFailure(description: "stream answered \(response.status)")
    }
    let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw BenchmarkFailure(description: "cannot create \(destination.path)")
    }
    defer { close(descriptor) }
    for try await chunk in body {
      try chunk.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          guard written > 0 else { throw BenchmarkFailure(description: "write failed") }
          offset += written
        }
      }
    }
    bytes = try fileSize(destination)
  case "upload":
    let body = try HTTPBody(contentsOf: URL(fileURLWithPath: file))
    let request = HTTPRequest(
      method: .put, url: base.appendingPathComponent("upload.bin"), body: body)
    let (response, answer) = try await client.send(request)
    for try await _ in answer {}
    guard (200..<300).contains(response.status) else {
      throw BenchmarkFailure(description: "upload answered \(response.status)")
    }
    bytes = expected
  default:
    throw BenchmarkFailure(description: "unknown mode \(mode)")
  }
  guard bytes == expected else {
    throw BenchmarkFailure(description: "\(mode): \(bytes) bytes, not \(expected)")
  }
}

/// Large bodies through both clients and the curl tool, each run a process timed from spawn to
/// exit (its own CPU time and peak RSS from `wait4`): a download streamed and dropped, a download
/// to a file, an upload from a file. Interleaved rounds; ratios are medians of per-round ratios
/// of MB/s over the curl tool's.
func runLargeBodies(options: Options, base: URL) throws -> (table: String, failures: [String]) {
  guard let file = options.uploadFile else {
    throw BenchmarkFailure(description: "--only large needs --upload-file (and --large-path)")
  }
  let size = try fileSize(URL(fileURLWithPath: file))
  let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  let tool = try CurlTool(path: options.curlTool).path
  let download = base.appendingPathComponent(options.largePath).absoluteString
  let upload = base.appendingPathComponent("upload.bin").absoluteString
  let destination = options.scratch.appendingPathComponent("large-curl-tool.bin").path
  func child(_ mode: String, over server: URL = base) -> (String, [String]) {
    var arguments = [
      "TransportBenchmarks", "--child", mode, "--base", server.absoluteString, "--scratch",
      options.scratch.path, "--upload-file", file, "--large-path", options.largePath,
    ]
    if let ca = options.caFile { arguments += ["--ca", ca] }
    return (executable, arguments)
  }
  let curl = ["curl", "--silent", "--show-error", "--fail"]
  var operations: [(name: String, contenders: [(name: String, command: (String, [String]))])] = [
    (
      "download, streamed and dropped",
      [
        ("curl tool (`-o /dev/null`)", (tool, curl + ["--output", "/dev/null", download])),
        ("EndpointCurl", child("large-curl-stream")),
        ("URLSession client", child("large-urlsession-stream")),
      ]
    ),
    (
      "download to a file",
      [
        ("curl tool (`-o FILE`)", (tool, curl + ["--output", destination, download])),
        ("EndpointCurl", child("large-curl-file")),
        ("EndpointCurl, streamed and written by the caller", child("large-curl-write")),
        ("URLSession client", child("large-urlsession-file")),
      ]
    ),
    (
      "upload from a file (`PUT`)",
      [
        ("curl tool (`-T FILE`)", (tool, curl + ["--output", "/dev/null", "-T", file, upload])),
        ("EndpointCurl", child("large-curl-upload")),
        ("URLSession client", child("large-urlsession-upload")),
      ]
    ),
  ]
  if let h2Base = options.h2Base, let ca = options.caFile {
    // HTTPS with HTTP/2 (TLS 1.3): the URLSession client cannot trust a throwaway authority
    // on Linux, so the curl client alone is set beside the tool.
    let secure = h2Base.appendingPathComponent(options.largePath).absoluteString
    let tls = curl + ["--http2", "--cacert", ca, "--tlsv1.3"]
    operations.insert(
      (
        "download over HTTPS (HTTP/2), streamed and dropped",
        [
          ("curl tool (`--http2 -o /dev/null`)", (tool, tls + ["--output", "/dev/null", secure])),
          ("EndpointCurl", child("large-curl-stream", over: h2Base)),
        ]
      ),
      at: 1
    )
  }
  var runs = operations.map { [[ProcessRun]](repeating: [], count: $0.contenders.count) }
  for round in 0..<options.rounds {
    for (index, operation) in operations.enumerated() {
      for offset in operation.contenders.indices {
        let which = (offset + round) % operation.contenders.count
        let (path, arguments) = operation.contenders[which].command
        runs[index][which].append(try timedProcess(path: path, arguments: arguments))
        // Every downloaded file is deleted after its run was timed, and so is the upload that
        // nginx stored (scripts/bench-transport.sh puts it in `put/` beside the scratch
        // directory): left in place, the next upload's rename over it would free a gigabyte of
        // tmpfs inside that run's time.
        for name in [
          "large-curl-tool.bin", "large-curl-file.bin", "large-curl-write.bin",
          "large-urlsession-file.bin",
        ] {
          try? FileManager.default.removeItem(at: options.scratch.appendingPathComponent(name))
        }
        try? FileManager.default.removeItem(
          at: options.scratch.deletingLastPathComponent().appending(path: "put/upload.bin"))
      }
    }
    log("large bodies round \(round + 1)/\(options.rounds)")
  }
  let mebibytes = Double(size) / 1_048_576
  var failures: [String] = []
  var lines = [
    "| operation | client | MB/s | vs curl tool | CPU s/GiB | peak RSS |",
    "|---|---|---:|---:|---:|---:|",
  ]
  for (index, operation) in operations.enumerated() {
    for (which, contender) in operation.contenders.enumerated() {
      let mine = runs[index][which]
      if let failure = mine.lazy.compactMap(\.failure).first {
        failures.append("\(operation.name), \(contender.name): \(failure)")
      }
      let rates = mine.map { Double(size) / 1e6 / $0.seconds }
      let ratios = zip(mine, runs[index][0]).map { $1.seconds / $0.seconds }
      let ratio =
        which == 0
        ? "1×"
        : format(median(ratios), digits: 2) + "× (" + format(ratios.min() ?? .nan, digits: 2)
          + "–" + format(ratios.max() ?? .nan, digits: 2) + ")"
      let cpu = median(mine.map { $0.cpuMicros / 1e6 / (mebibytes / 1024) })
      let rss = mine.map { Double($0.maxRSSKilobytes) / 1024 }.max() ?? .nan
      lines.append(
        "| \(operation.name) | \(contender.name) | \(format(median(rates), digits: 0)) "
          + "| \(ratio) | \(format(cpu, digits: 2)) | \(format(rss, digits: 1)) MiB |"
      )
    }
  }
  lines.append("")
  lines.append(
    "\(format(mebibytes, digits: 0)) MiB of random bytes per run from nginx on loopback, over "
      + "plain HTTP/1.1 unless the row says HTTPS (TLS 1.3, HTTP/2); "
      + "\(options.rounds) rounds, interleaved; each run a process timed from spawn to exit "
      + "(process start included, a few ms); CPU and peak RSS (the highest of the rounds) from "
      + "`wait4`. Files are written to \(options.scratch.path) and deleted after each run, "
      + "outside its time; nginx stores each upload (WebDAV `PUT`) on tmpfs, deleted after each run too."
  )
  return (lines.joined(separator: "\n"), failures)
}

private func fileSize(_ url: URL) throws -> Int64 {
  let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
  return (attributes[.size] as? NSNumber)?.int64Value ?? -1
}
