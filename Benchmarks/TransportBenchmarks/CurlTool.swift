import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The `curl` command line tool fetching the document `count` times in one process: one
/// connection, transfers back to back (`concurrency` 1), or `--parallel` with at most
/// `concurrency` transfers (and so connections) at a time.
///
/// The URLs come from curl's own globbing (`doc.json?[1-count]`, nginx ignores the query), so the
/// tool reads no list; bodies go to /dev/null. The sample's CPU time and context switches are the
/// child's own (from `wait4`), its time the wall time from spawn to exit.
struct CurlTool {
  let path: String
  /// Arguments placed before the URL (`--http2`, `--cacert FILE`, ...).
  var extra: [String] = []

  /// Finds `curl` on `PATH` (or takes the one given).
  init(path: String?) throws {
    if let path {
      self.path = path
      return
    }
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":")
    guard
      let found = directories.map({ "\($0)/curl" })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      throw BenchmarkFailure(description: "the curl command line tool is not on PATH")
    }
    self.path = found
  }

  func arguments(document: URL, count: Int, concurrency: Int) -> [String] {
    var arguments = [
      "curl", "--silent", "--show-error", "--no-progress-meter", "--fail",
      "--header", "Accept: application/json",
    ]
    if concurrency > 1 {
      arguments += ["--parallel", "--parallel-max", String(concurrency)]
    }
    arguments += extra
    arguments.append("\(document.absoluteString)?[1-\(count)]")
    return arguments
  }

  /// Runs one process of `count` requests; a non-zero exit counts every request as failed.
  func run(document: URL, count: Int, concurrency: Int) throws -> Sample {
    let run = try timedProcess(
      path: path,
      arguments: arguments(document: document, count: count, concurrency: concurrency)
    )
    let failed = run.failure != nil
    return Sample(
      requests: failed ? 0 : count,
      failures: failed ? count : 0,
      seconds: run.seconds,
      cpuMicros: run.cpuMicros,
      contextSwitches: run.contextSwitches,
      firstFailure: run.failure.map { "curl " + $0 }
    )
  }
}

/// One child process from spawn to exit: its wall time, and its own CPU time and context
/// switches (from `wait4`).
struct ProcessRun {
  let seconds: Double
  let cpuMicros: Double
  let contextSwitches: Int
  /// Its peak resident set size (`ru_maxrss`).
  let maxRSSKilobytes: Int
  /// How it ended, when not with status 0.
  let failure: String?
}

/// Spawns `path` with `arguments` (the first is its name), its standard output to /dev/null,
/// and waits for it.
func timedProcess(path: String, arguments: [String]) throws -> ProcessRun {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  let clock = ContinuousClock()
  let start = clock.now
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
  guard spawned == 0 else {
    throw BenchmarkFailure(
      description: "could not start \(path): \(String(cString: strerror(spawned)))"
    )
  }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 {
    guard errno == EINTR else {
      throw BenchmarkFailure(description: "wait4 failed: \(String(cString: strerror(errno)))")
    }
  }
  let seconds = (clock.now - start).seconds
  let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
  let system = Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
  // WIFEXITED / WEXITSTATUS are macros: the low 7 bits are the signal, the next 8 the status.
  let exited = status & 0x7f == 0
  let code = (status >> 8) & 0xff
  let failed = !exited || code != 0
  return ProcessRun(
    seconds: seconds,
    cpuMicros: user + system,
    contextSwitches: Int(usage.ru_nvcsw + usage.ru_nivcsw),
    maxRSSKilobytes: Int(usage.ru_maxrss),
    failure: failed
      ? (exited ? "exited with \(code)" : "killed by signal \(status & 0x7f)") : nil
  )
}
