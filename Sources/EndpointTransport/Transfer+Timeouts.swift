import EndpointKernel
import EndpointPrimitives
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The transfer's timer (deadline, idle and connect timeouts), Foundation's errors mapped to
/// the SDK's, and the metrics handed to the observer.
extension Transfer {
  func startTimer() {
    var first = options.connectTimeout
    if let idle = options.idleTimeout { first = min(first ?? idle, idle) }
    if let deadline = options.deadline { first = min(first ?? deadline, deadline) }
    guard let first else { return }
    timeouts.add(self, checkAt: startInstant + first)
    // Stopped while being added: nothing will remove it later.
    if state.withVisibleLock({ $0.outcome != nil }) { timeouts.remove(self) }
  }

  func checkTimeouts(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
    var reschedule: Duration?
    let effects = state.withVisibleLock { state -> Effects in
      guard state.outcome == nil else { return Effects() }
      let elapsed = now - startInstant
      let url = state.response?.url ?? state.hop.url
      if let deadline = options.deadline, elapsed >= deadline {
        return state.terminate(
          with: TransportFailure.deadlineExceeded(
            method: method, url: url, limit: deadline, elapsed: elapsed)
        )
      }
      var wait = connectWait(state: state, elapsed: elapsed)
      if let wait, wait <= .zero, let limit = options.connectTimeout {
        return state.terminate(
          with: TransportFailure.connectTimeout(method: method, url: url, limit: limit))
      }
      if let idle = options.idleTimeout {
        let silence = now - state.lastActivity
        if silence >= idle {
          return state.terminate(
            with: TransportFailure.idleTimeout(
              method: method, url: url, limit: idle, silence: silence)
          )
        }
        wait = min(wait ?? idle - silence, idle - silence)
      }
      if let deadline = options.deadline {
        wait = min(wait ?? deadline - elapsed, deadline - elapsed)
      }
      reschedule = wait
      return Effects()
    }
    perform(effects)
    return reschedule.map { now + $0 }
  }

  func mapError(
    _ error: (any Error)?,
    _ urlError: URLError?,
    state: State,
    now: ContinuousClock.Instant
  ) -> any Error {
    let url = state.response?.url ?? state.hop.url
    guard let urlError else { return error ?? CancellationError() }
    switch urlError.code {
    case .cancelled where state.cancelRequested:
      return CancellationError()
    case .timedOut:
      let limit = options.idleTimeout ?? .seconds(options.foundationTimeout)
      return TransportFailure.idleTimeout(
        method: method, url: url, limit: limit, silence: now - state.lastActivity)
    case .httpTooManyRedirects:
      return TransportFailure.tooManyRedirects(
        method: method, limit: state.chain.count - 1, chain: state.chain)
    case .unsupportedURL where Transfer.isHTTP(state.hop.url):
      // What URLSession on Linux reports for a status line it cannot read.
      return TransportFailure.malformedResponse(
        method: state.hop.method,
        url: url,
        reason: "the status line cannot be read"
      )
    default:
      let failure = TransportFailure.urlSession(method: state.hop.method, url: url, error: urlError)
      guard failure.kind == .malformedResponse, urlError.code == .unknown,
        let head = state.response?.response as? HTTPURLResponse,
        let transferEncoding = head.value(forHTTPHeaderField: "Transfer-Encoding"),
        ResponseFraming.hasTransferCoding([transferEncoding])
      else { return failure }
      // Foundation's libcurl decodes transfer codings, and words a failure as a content
      // coding's: the curl client's sentence says which coding it was.
      let message = urlError.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
      return TransportFailure.undecodableTransferCoding(
        method: state.hop.method, url: url, transferEncoding: [transferEncoding],
        underlying: urlError,
        detail: "URLError \(urlError.code.rawValue): \(Redaction.standard.apply(toText: message))",
        code: urlError.code.rawValue)
    }
  }

  static func isHTTP(_ url: URL) -> Bool {
    guard let scheme = url.scheme else { return false }
    return FieldName.equals(scheme, "http") || FieldName.equals(scheme, "https")
  }

  static func urlError(from error: any Error) -> URLError? {
    if let urlError = error as? URLError { return urlError }
    let nsError = error as NSError
    guard nsError.domain == NSURLErrorDomain else { return nil }
    #if canImport(FoundationNetworking)
      let code = URLError.Code(rawValue: nsError.code) ?? .unknown
    #else
      let code = URLError.Code(rawValue: nsError.code)
    #endif
    return URLError(code, userInfo: nsError.userInfo)
  }

  func deliverMetrics(_ snapshot: State.Snapshot) {
    guard let observer = options.metricsObserver else { return }
    observer(
      TransferMetrics(
        method: method,
        url: url,
        finalURL: snapshot.finalURL,
        status: snapshot.status,
        startDate: startDate,
        start: startInstant,
        responseStart: snapshot.responseStart,
        firstBodyByte: snapshot.firstByte,
        end: ContinuousClock.now,
        bytesSent: snapshot.bytesSent,
        bytesReceived: snapshot.bytesReceived,
        redirectCount: snapshot.redirectCount,
        error: snapshot.error
      )
    )
  }
}
