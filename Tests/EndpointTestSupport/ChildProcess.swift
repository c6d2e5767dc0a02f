import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a program printed, and how it ended.
public struct ChildProcessResult: Sendable {
  /// The exit status; 128 plus the signal's number when a signal ended it.
  public var status: Int32
  /// Its standard output and standard error, together.
  public var output: String
}

/// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments` to its end.
///
/// The child is waited for on a thread of its own, not on one of the few threads of Swift's
/// cooperative pool (two on a 2-core machine): a test that held one for the seconds a compiler
/// takes would hold back the timers and transfers of every other test in the process.
///
/// Foundation's `Process.run()` lists `/proc/self/fd` to close the test process's descriptors in
/// the child, and crashed doing it (a read past the end of a page) in a test process with over a
/// thousand descriptors open. This spawns with `posix_spawnp` and has the child close every
/// descriptor above standard error instead (`posix_spawn_file_actions_addclosefrom_np`, glibc
/// 2.34), so no socket of another test is held open by the child.
///
/// One child runs at a time, the others wait their turn on their own threads: a compiler takes a
/// whole core, and a dozen at once on two cores starved the timers of every other test in the
/// process.
public func runChildProcess(
  _ executable: String,
  _ arguments: [String],
  environment: [String: String]? = nil
) async throws -> ChildProcessResult {
  try await onOwnThread { try spawnAndWait(executable, arguments, environment: environment) }
}

/// ``runChildProcess(_:_:environment:)`` on the calling thread, which it blocks.
private func spawnAndWait(
  _ executable: String,
  _ arguments: [String],
  environment: [String: String]?
) throws -> ChildProcessResult {
  childProcessTurn.wait()
  defer { childProcessTurn.signal() }
  let (reading, writing) = try closeOnExecPipe()
  defer { close(reading) }
  let spawned = Result { try spawnChild(executable, arguments, environment, output: writing) }
  close(writing)
  let pid = try spawned.get()
  var output = Data()
  var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  while true {
    let count = read(reading, &buffer, buffer.count)
    if count > 0 {
      output.append(contentsOf: buffer[0..<count])
    } else if count == 0 || errno != EINTR {
      break
    }
  }
  return ChildProcessResult(
    status: try waitForChild(pid), output: String(decoding: output, as: UTF8.self))
}

/// A pipe whose two ends are not inherited by the children other tests spawn meanwhile
/// (`pipe2` is not imported).
private func closeOnExecPipe() throws -> (reading: Int32, writing: Int32) {
  var ends: [Int32] = [-1, -1]
  guard pipe(&ends) == 0 else { throw ChildProcessFailure(call: "pipe", errno) }
  _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
  _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
  return (ends[0], ends[1])
}

/// Spawns `executable` with `output` as its standard output (and standard error, unless
/// `errorsToo` is false), `input` as its standard input when given, and every other
/// descriptor closed.
private func spawnChild(
  _ executable: String,
  _ arguments: [String],
  _ environment: [String: String]?,
  input: Int32? = nil,
  output: Int32,
  errorsToo: Bool = true
) throws -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  if let input { posix_spawn_file_actions_adddup2(&actions, input, 0) }
  posix_spawn_file_actions_adddup2(&actions, output, 1)
  if errorsToo { posix_spawn_file_actions_adddup2(&actions, output, 2) }
  if let closeFrom = closeFromAction {
    _ = closeFrom(&actions, 3)
  }
  let argv = ([executable] + arguments).map { strdup($0) }
  defer { for argument in argv { free(argument) } }
  let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0)=\($1)" }
  let envp = variables.map { strdup($0) }
  defer { for variable in envp { free(variable) } }
  var pid: pid_t = 0
  let spawned = posix_spawnp(&pid, executable, &actions, nil, argv + [nil], envp + [nil])
  guard spawned == 0 else { throw ChildProcessFailure(call: "posix_spawnp", spawned) }
  return pid
}

/// Waits for the child `pid` to end: its exit status, or 128 plus the signal's number.
private func waitForChild(_ pid: pid_t) throws -> Int32 {
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 {
    guard errno == EINTR else { throw ChildProcessFailure(call: "waitpid", errno) }
  }
  // WIFEXITED and WEXITSTATUS, which Swift does not import.
  let signal = status & 0x7f
  return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// A server in a child process, for one test: it prints one line once it listens (its port),
/// and stops when its standard input closes. It is spawned as ``runChildProcess(_:_:environment:)``
/// spawns (no descriptor of another test inherited), and started and stopped on threads of
/// its own, never on the cooperative pool; its standard error stays the test process's.
public final class ChildServer: Sendable {
  /// The first line the server printed, without its newline.
  public let firstLine: String
  private let pid: pid_t
  private let input: Int32

  private init(firstLine: String, pid: pid_t, input: Int32) {
    self.firstLine = firstLine
    self.pid = pid
    self.input = input
  }

  /// Starts `executable` with `arguments` and waits for its first line; a server that ends
  /// before printing one is an error.
  public static func start(_ executable: String, _ arguments: [String]) async throws -> ChildServer
  {
    try await onOwnThread {
      let (inputReading, inputWriting) = try closeOnExecPipe()
      let (outputReading, outputWriting) = try closeOnExecPipe()
      defer { close(outputReading) }
      let spawned = Result {
        try spawnChild(
          executable, arguments, nil, input: inputReading, output: outputWriting,
          errorsToo: false)
      }
      close(inputReading)
      close(outputWriting)
      let pid: pid_t
      do { pid = try spawned.get() } catch {
        close(inputWriting)
        throw error
      }
      var line: [UInt8] = []
      var byte: UInt8 = 0
      while true {
        let count = read(outputReading, &byte, 1)
        if count == 1, byte != UInt8(ascii: "\n") {
          line.append(byte)
        } else if count == 1 || count == 0 || errno != EINTR {
          break
        }
      }
      guard byte == UInt8(ascii: "\n") else {
        close(inputWriting)
        _ = try? waitForChild(pid)
        throw ChildProcessFailure(call: "reading the first line of \(executable)", EPIPE)
      }
      return ChildServer(
        firstLine: String(decoding: line, as: UTF8.self), pid: pid, input: inputWriting)
    }
  }

  /// Closes the server's standard input and waits for it to end.
  public func stop() async {
    _ = try? await onOwnThread { [self] in
      close(input)
      return try waitForChild(pid)
    }
  }
}

/// `work` on a thread of its own, so the cooperative pool's few threads never wait on it.
private func onOwnThread<Value: Sendable>(
  _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// The turn of the one child process that runs at a time.
private let childProcessTurn = DispatchSemaphore(value: 1)

/// A system call of ``runChildProcess(_:_:environment:)`` failed.
public struct ChildProcessFailure: Error, CustomStringConvertible {
  /// The call that failed.
  public var call: String
  /// Its error number.
  public var code: Int32

  init(call: String, _ code: Int32) {
    self.call = call
    self.code = code
  }

  /// The call and its error, in words.
  public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// `posix_spawn_file_actions_addclosefrom_np`, which the Glibc module does not import; `nil`
/// before glibc 2.34.
private let closeFromAction:
  (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard
      let symbol = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(
      symbol,
      to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
  }()
