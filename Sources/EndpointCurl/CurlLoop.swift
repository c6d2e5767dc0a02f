internal import CCurl
import EndpointPrimitives
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The thread that owns libcurl's multi handle and every easy handle of one client.
///
/// libcurl handles may be used by one thread at a time, so this thread does all the libcurl
/// work: it waits on epoll for the sockets libcurl asks it to watch (the socket-action API) and
/// for an eventfd that other threads write to after queueing a command (start, detach, unpause,
/// shut down) in the locked inbox. Completions resume the callers' continuations directly from
/// here.
///
/// `@unchecked Sendable`: every stored property is either immutable, behind `inbox`'s lock, an
/// atomic, or touched only on the loop thread (the ones marked so below).
final class CurlLoop: TaskExecutor, @unchecked Sendable {
  enum Command {
    case start(CurlTransfer)
    case detach(CurlTransfer)
    case unpause(CurlTransfer)
    case release
    /// A job of a task that prefers the loop as its executor (see ``CurlHTTPClient/executor``).
    case run(UnownedJob)
  }

  /// Settings that are the same for every request of a client.
  struct Settings: Sendable {
    var tls: CurlHTTPClient.TLS
    var proxy: CurlHTTPClient.Proxy
    /// How long making a connection (TCP and TLS) may take; `nil` for libcurl's default.
    var connectTimeout: Duration? = nil
    /// The Unix domain socket every request goes through instead of TCP, if any.
    var unixSocketPath: String? = nil
    /// Whether the client keeps cookies between its exchanges.
    var storesCookies = false
    var maximumConnectionsPerHost: Int
    var maximumIdleConnections: Int
    /// The most idle easy handles kept for reuse.
    var handlePoolLimit: Int
  }

  private enum InboxState {
    case open
    case closing
    case finished
  }

  private struct Inbox {
    var commands: [Command] = []
    /// The loop waits, or is about to, with an empty inbox: the next command must wake it.
    /// While the loop works it takes new commands before it waits, and nobody writes the eventfd.
    var loopWaits = false
    var state = InboxState.open
    var shutdownWaiters: [UnsafeContinuation<Void, Never>] = []
  }

  let settings: Settings
  /// The cookies every handle of the client shares, when it stores cookies.
  let cookieStore: CurlCookieStore?
  let poller: EventPoller
  let multi: OpaquePointer
  private let inbox = Mutex(Inbox())

  /// Easy handles that exist (in use or pooled).
  let liveHandles = Atomic<Int>(0)
  /// Easy handles waiting in the pool.
  let pooledHandles = Atomic<Int>(0)
  /// Bytes of streamed bodies received and not yet read, over all transfers.
  let bytesWaitingForReaders = Atomic<Int>(0)
  /// Bytes of streamed request bodies read from their streams and not yet taken by libcurl,
  /// over all transfers.
  let bytesWaitingToBeSent = Atomic<Int>(0)

  // Loop thread only.
  /// The time as of the loop's last wake-up: what callbacks use as the moment of activity, so
  /// that the clock is read once per wake-up rather than once per header line.
  private(set) var now = ContinuousClock.now
  var pool: [EasyHandle] = []
  var active: [CurlTransfer] = []
  private var drained: [Command] = []
  /// Transfers whose waiting reader is woken when the current round ends.
  private var readersToWake: [CurlTransfer] = []
  /// Transfers whose response ended while their upload went on: ended when the round ends.
  var answeredTransfers: [CurlTransfer] = []
  /// Transfers whose answer ends with the connection's close, looked for each round.
  var closedAnswers: [CurlTransfer] = []
  private var curlTimer: ContinuousClock.Instant?
  var nextTimeoutCheck: ContinuousClock.Instant?
  private var released = false
  var stopping = false

  init(settings: Settings) throws(PollerFailure) {
    self.settings = settings
    cookieStore = settings.storesCookies ? CurlCookieStore() : nil
    poller = try EventPoller()
    guard let multi = ccurl_multi_init() else {
      poller.close()
      throw PollerFailure(call: "curl_multi_init", errno: ENOMEM)
    }
    self.multi = multi
    poller.attach(multi: multi)
    let context = Unmanaged.passUnretained(self).toOpaque()
    _ = ccurl_multi_setopt_timer_callback(multi, CCURLMOPT_TIMERFUNCTION) {
      _, milliseconds, context in
      guard let context else { return 0 }
      let loop = Unmanaged<CurlLoop>.fromOpaque(context).takeUnretainedValue()
      // A fresh reading, not `loop.now`: a timer that fired early would be lost, as libcurl does
      // not report an unchanged timeout again.
      loop.curlTimer = milliseconds < 0 ? nil : .now + .milliseconds(milliseconds)
      return 0
    }
    _ = ccurl_multi_setopt_pointer(multi, CCURLMOPT_TIMERDATA, context)
    // Without this the connection cache follows the number of attached handles and closes
    // keep-alive connections whenever fewer requests are in flight.
    _ = ccurl_multi_setopt_long(
      multi,
      CCURLMOPT_MAXCONNECTS,
      CLong(max(1, settings.maximumIdleConnections))
    )
    _ = ccurl_multi_setopt_long(
      multi,
      CCURLMOPT_MAX_HOST_CONNECTIONS,
      CLong(max(1, settings.maximumConnectionsPerHost))
    )
    try startThread()
  }

  // MARK: - Any thread

  /// The `epoll_ctl` calls the loop made so far (for tests of keeping sockets registered).
  var pollerControlCalls: Int { poller.controlCalls }

  /// Runs a job on the loop thread, between two rounds of libcurl work; once the loop no longer
  /// takes commands (shut down), on the global concurrent executor instead.
  func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    if !submit(.run(unowned)) {
      globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
    }
  }

  /// The times the loop waited for events so far (for tests that it does not spin).
  var pollerWaits: Int { poller.waits }

  /// Queues `command` for the loop; `false` when the loop no longer takes commands (shut down).
  @discardableResult
  func submit(_ command: Command) -> Bool {
    let (accepted, wake) = inbox.withVisibleLock { inbox -> (Bool, Bool) in
      guard case .open = inbox.state else { return (false, false) }
      inbox.commands.append(command)
      guard inbox.loopWaits else { return (true, false) }
      inbox.loopWaits = false
      return (true, true)
    }
    if wake { poller.wake() }
    return accepted
  }

  /// Fails every request in flight with a ``EndpointCore/TransportFailure`` of kind
  /// ``EndpointCore/TransportFailure/Kind/shutDown``, stops the thread and frees every libcurl
  /// handle; returns when that is done.
  func shutdown() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let (finished, wake) = inbox.withVisibleLock { inbox -> (Bool, Bool) in
        if case .finished = inbox.state { return (true, false) }
        inbox.shutdownWaiters.append(continuation)
        inbox.state = .closing
        guard inbox.loopWaits else { return (false, false) }
        inbox.loopWaits = false
        return (false, true)
      }
      if wake { poller.wake() }
      if finished { continuation.resume() }
    }
  }

  // MARK: - Loop thread

  private func startThread() throws(PollerFailure) {
    let context = Unmanaged.passRetained(self).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread,
      nil,
      { context in
        guard let context else { return nil }
        let loop = Unmanaged<CurlLoop>.fromOpaque(context).takeRetainedValue()
        loop.run()
        return nil
      },
      context
    )
    guard result == 0 else {
      Unmanaged<CurlLoop>.fromOpaque(context).release()
      ccurl_multi_cleanup(multi)
      poller.close()
      throw PollerFailure(call: "pthread_create", errno: result)
    }
    pthread_detach(thread)
  }

  private func run() {
    ccurl_set_thread_name("EndpointCurl")
    // libcurl leaves SIGPIPE alone with CURLOPT_NOSIGNAL, and a write to a closed socket would
    // kill the process. Every socket write happens on this thread, so blocking SIGPIPE here is
    // enough: the write fails with EPIPE instead, and no process-wide handler changes.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &signals, nil)

    while true {
      drainInbox()
      // Resuming a paused transfer in the inbox hands libcurl's held bytes over at once.
      wakeReaders()
      if stopping || (released && active.isEmpty) { break }
      let timeout = waitTimeout()
      if timeout != 0, announceWait() {
        poller.wait(timeout: timeout)
        inbox.withVisibleLock { $0.loopWaits = false }
      } else {
        poller.wait(timeout: 0)
      }
      now = .now
      poller.dispatch()
      if let timer = curlTimer, timer <= now {
        curlTimer = nil
        var running: Int32 = 0
        _ = ccurl_multi_socket_action(multi, CCURL_SOCKET_TIMEOUT, 0, &running)
      }
      wakeReaders()
      collectFinished()
      checkClosedAnswers()
      endAnswered()
      checkTimeouts()
    }
    tearDown()
  }

  /// Tells submitters that the loop is going to wait, unless a command or a shutdown arrived
  /// since the inbox was drained; returns whether the loop may wait.
  private func announceWait() -> Bool {
    inbox.withVisibleLock { inbox -> Bool in
      guard inbox.commands.isEmpty, case .open = inbox.state else { return false }
      inbox.loopWaits = true
      return true
    }
  }

  private func waitTimeout() -> Int32 {
    let next: ContinuousClock.Instant?
    switch (curlTimer, nextTimeoutCheck) {
    case (let timer?, let check?): next = min(timer, check)
    case (let timer?, nil): next = timer
    case (nil, let check?): next = check
    case (nil, nil): next = nil
    }
    let now = ContinuousClock.now
    self.now = now
    // An answer whose end is the connection's close is looked for every few milliseconds.
    let cap: Int32 = closedAnswers.isEmpty ? -1 : Self.closedAnswerCheck
    guard let next else { return cap }
    let wait = next <= now ? 0 : (next - now).millisecondsRoundedUp
    return cap < 0 ? wait : min(wait, cap)
  }

  /// Has the loop wake `transfer`'s waiting reader when the current round ends: every piece of
  /// body the round brings reaches the reader in one hand-over.
  func wakeReaderAfterRound(_ transfer: CurlTransfer) {
    readersToWake.append(transfer)
  }

  private func wakeReaders() {
    guard !readersToWake.isEmpty else { return }
    for transfer in readersToWake { transfer.wakeReader() }
    readersToWake.removeAll(keepingCapacity: true)
  }

  private func drainInbox() {
    let closing = inbox.withVisibleLock { inbox -> Bool in
      swap(&drained, &inbox.commands)
      if case .closing = inbox.state { return true }
      return false
    }
    for command in drained {
      switch command {
      case .start(let transfer): attach(transfer)
      case .detach(let transfer): retire(transfer)
      case .unpause(let transfer):
        if let handle = transfer.easy {
          transfer.upload?.loopResumes()
          transfer.lastActivity = now
          // libcurl hands the bytes it held over within this call: a decoded body may fail
          // there (past the size limit), or end. libcurl only notices when it next runs the
          // handle, so a failed transfer retires now and the others run at once.
          _ = ccurl_easy_pause(handle.pointer, CCURLPAUSE_CONT)
          if !transfer.isLive {
            retire(transfer)
          } else {
            curlTimer = now
          }
        }
      case .release: released = true
      case .run(let job): job.runSynchronously(on: asUnownedTaskExecutor())
      }
    }
    drained.removeAll(keepingCapacity: true)
    if closing { stopping = true }
  }

  private func tearDown() {
    stopping = true
    let (pending, waiters) = inbox.withVisibleLock { inbox in
      inbox.state = .finished
      let taken = (inbox.commands, inbox.shutdownWaiters)
      inbox.commands = []
      inbox.shutdownWaiters = []
      return taken
    }
    for command in pending {
      switch command {
      case .start(let transfer):
        transfer.failOnLoop(transfer.shutDownError())
        retire(transfer)
      case .run(let job):
        // Accepted before the loop closed: it still runs, on the executor every task can use.
        globalConcurrentExecutor.enqueue(ExecutorJob(job))
      case .detach, .unpause, .release:
        break
      }
    }
    for transfer in active {
      transfer.failOnLoop(transfer.shutDownError())
    }
    while let transfer = active.last {
      retire(transfer)
    }
    ccurl_multi_cleanup(multi)
    liveHandles.subtract(pool.count, ordering: .relaxed)
    pooledHandles.store(0, ordering: .relaxed)
    pool.removeAll()
    cookieStore?.close()
    poller.close()
    for waiter in waiters { waiter.resume() }
  }
}
