internal import CCurl
import EndpointKernel
import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The end of a hop on the loop thread: settling the outcome, following a redirect, timeouts,
/// libcurl's timings, retirement with the metrics, and libcurl's codes mapped to errors.
extension CurlTransfer {
  // MARK: - Loop side: the end of a request

  /// The easy handle finished the current hop with `code`.
  func transferEnded(code: Int32) -> Next {
    // The reader gets the last bytes before it can hear of the end.
    wakeReader()
    guard isLive else { return .retire }
    lastActivity = loop.now
    if abandonedRedirectBody, let response { return followRedirect(from: response) }
    // libcurl refused (`CURLOPT_MAXREDIRS` 0) to send again a request answered `417` instead
    // of `100 Continue`: that answer, already read whole, ends the exchange.
    let refusedRetry =
      code == CCURLE_TOO_MANY_REDIRECTS && response?.status == 417 && expectsContinue
    guard code == CCURLE_OK || refusedRetry else {
      failOnLoop(failure(endingWith: code))
      return .retire
    }
    guard let response else {
      failOnLoop(connectionFailure(.malformedResponse, code: 0, "the server sent no response head"))
      return .retire
    }
    if let reason = contentDecoder?.unfinishedReason, endsWithBody {
      failOnLoop(
        TransportFailure.malformedResponse(
          method: hop.method, url: response.url ?? hop.url, reason: reason))
      return .retire
    }
    switch delivery {
    case .redirect:
      return followRedirect(from: response)
    case .file(let writer):
      do {
        try writer.finish()
        settle(head: (response, .empty))
      } catch {
        failOnLoop(error)
      }
    case .errorBody:
      let accepted: AcceptedStatus
      if case .download(_, let set) = mode { accepted = set } else { accepted = .success }
      failOnLoop(
        UnexpectedResponse(
          method: hop.method,
          url: response.url ?? hop.url,
          response: response,
          body: inline,
          accepted: accepted
        )
      )
    case .pending, .inline:
      let body = HTTPBody(inline)
      inline = Data()
      settle(head: (response, body))
    case .streaming:
      settle(head: nil)
    }
    return .retire
  }

  /// The body ended normally: the caller gets the head (for inline bodies) or the end of the
  /// stream, once the loop retires the transfer.
  private func settle(head value: (HTTPResponse, HTTPBody)?) {
    let (head, waiter) = shared.withVisibleLock {
      shared -> (HeadContinuation?, ChunkContinuation?) in
      guard shared.isOpen else { return (nil, nil) }
      shared.outcome = .finished
      defer {
        shared.head = nil
        shared.waiter = nil
      }
      return (shared.head, shared.waiter)
    }
    if let head, let value { pendingHead = (head, .success(value)) }
    if let waiter { pendingWaiter = (waiter, .success(nil)) }
  }

  private func followRedirect(from response: HTTPResponse) -> Next {
    guard let limit = options.redirectLimit else { return .retire }
    let location: URL
    do {
      let value = try RedirectRule.location(
        in: response.headerFields.values(for: "Location"),
        status: response.status,
        method: hop.method,
        url: hop.url
      )
      location = try RedirectRule.location(
        value ?? "", relativeTo: hop.url, status: response.status)
    } catch {
      failOnLoop(error)
      return .retire
    }
    if chain.count > limit {
      failOnLoop(
        TransportFailure.tooManyRedirects(method: method, limit: limit, chain: chain + [location])
      )
      return .retire
    }
    do {
      hop = try RedirectRule.next(
        after: hop,
        status: response.status,
        location: location,
        credentialFieldNames: options.credentialFieldNames
      )
      chain.append(location)
      if let upload, case .none = hop.body { upload.close() }
      return .restart
    } catch {
      failOnLoop(error)
      return .retire
    }
  }

  // MARK: - Loop side: timeouts and retirement

  /// The first moment a timeout could fire, for a transfer that just started.
  func firstExpiry() -> ContinuousClock.Instant? {
    switch (options.deadline, options.idleTimeout) {
    case (let deadline?, let idle?): startInstant + min(deadline, idle)
    case (let deadline?, nil): startInstant + deadline
    case (nil, let idle?): startInstant + idle
    case (nil, nil): nil
    }
  }

  func timeoutCheck(now: ContinuousClock.Instant) -> TimeoutCheck {
    var next: ContinuousClock.Instant?
    let currentURL = response?.url ?? hop.url
    if let deadline = options.deadline {
      let elapsed = now - startInstant
      if elapsed >= deadline {
        return .expired(
          TransportFailure.deadlineExceeded(
            method: method,
            url: currentURL,
            limit: deadline,
            elapsed: elapsed
          )
        )
      }
      next = startInstant + deadline
    }
    if let idle = options.idleTimeout {
      let paused =
        shared.withVisibleLock { $0.pausedForReader }
        || upload?.waitsForProducer == true
      let wake: ContinuousClock.Instant
      if paused {
        // A slow reader (or a slow request body stream) is not a silent server: check again
        // later.
        wake = now + idle
      } else {
        let silence = now - lastActivity
        if silence >= idle {
          return .expired(
            TransportFailure.idleTimeout(
              method: method, url: currentURL, limit: idle, silence: silence)
          )
        }
        wake = lastActivity + idle
      }
      next = min(next ?? wake, wake)
    }
    return next.map { .next($0) } ?? .none
  }

  /// libcurl's timings for the current hop.
  func curlInfo(_ handle: EasyHandle) -> CurlInfo {
    func time(_ info: Int32) -> Duration? {
      var microseconds: Int64 = 0
      guard ccurl_easy_getinfo_off_t(handle.pointer, info, &microseconds) == CCURLE_OK,
        microseconds > 0
      else { return nil }
      return .microseconds(microseconds)
    }
    var connects: CLong = 0
    var version: CLong = 0
    let hasConnects =
      ccurl_easy_getinfo_long(handle.pointer, CCURLINFO_NUM_CONNECTS, &connects) == CCURLE_OK
    _ = ccurl_easy_getinfo_long(handle.pointer, CCURLINFO_HTTP_VERSION, &version)
    let httpVersion: String? =
      switch version {
      case 1: "1.0"
      case 2: "1.1"
      case 3: "2"
      case 30: "3"
      default: nil
      }
    return CurlInfo(
      nameLookup: time(CCURLINFO_NAMELOOKUP_TIME_T),
      connect: time(CCURLINFO_CONNECT_TIME_T),
      tlsHandshake: time(CCURLINFO_APPCONNECT_TIME_T),
      firstByte: time(CCURLINFO_STARTTRANSFER_TIME_T),
      total: time(CCURLINFO_TOTAL_TIME_T),
      reusedConnection: hasConnects && response != nil ? connects == 0 : nil,
      httpVersion: httpVersion
    )
  }

  /// Resumes a head continuation that ``cancel()`` left for the loop, with the failure.
  func resumeHeldHead() {
    let (head, error) = shared.withVisibleLock {
      shared -> (HeadContinuation?, (any Error)?) in
      defer { shared.head = nil }
      if case .failed(let error) = shared.outcome { return (shared.head, error) }
      return (nil, nil)
    }
    if let head, let error { head.resume(throwing: error) }
  }

  /// The transfer left the loop: drops a partial download and reports the metrics.
  func retire(curlInfo: CurlInfo?) {
    if case .file(let writer) = delivery { writer.discard() }
    upload?.close()
    inline = Data()
    if shared.withVisibleLock({ $0.isOpen }) { failOnLoop(shutDownError()) }
    resumeHeldHead()
    defer {
      if let (continuation, result) = pendingHead { continuation.resume(with: result) }
      if let (continuation, result) = pendingWaiter { continuation.resume(with: result) }
      pendingHead = nil
      pendingWaiter = nil
    }
    guard let observer = options.metricsObserver else { return }
    let error: (any Error)? = shared.withVisibleLock { shared in
      if case .failed(let error) = shared.outcome { return error }
      return nil
    }
    let end = ContinuousClock.now
    observer(
      TransferMetrics(
        method: method,
        url: url,
        finalURL: response?.url,
        status: response?.status,
        // Derived here rather than read at the start: only requests with an observer pay for it.
        startDate: Date(timeIntervalSinceNow: -(end - startInstant).seconds),
        start: startInstant,
        responseStart: responseStart,
        firstBodyByte: firstBodyByte,
        end: end,
        nameLookup: curlInfo?.nameLookup,
        connect: curlInfo?.connect,
        tlsHandshake: curlInfo?.tlsHandshake,
        firstByte: curlInfo?.firstByte,
        total: curlInfo?.total,
        reusedConnection: curlInfo?.reusedConnection,
        httpVersion: curlInfo?.httpVersion,
        bytesSent: bytesSent,
        bytesReceived: bytesReceived,
        redirectCount: chain.count - 1,
        error: error
      )
    )
  }

  // MARK: - Errors

  func shutDownError() -> TransportFailure {
    TransportFailure.shutDown(method: method, url: url, client: "CurlHTTPClient")
  }

  func connectionFailure(
    _ kind: TransportFailure.Kind,
    code: Int32,
    _ detail: String
  ) -> TransportFailure {
    CurlFailure.make(kind, method: hop.method, url: hop.url, code: Int(code), detail: detail)
  }

  func curlFailure(_ code: Int32) -> TransportFailure {
    if code == CCURLE_SEND_FAIL_REWIND, case .stream = hop.body {
      // libcurl wanted to send the body again on a new connection after the first one closed.
      let detail =
        "the connection closed after part of the streamed request body was sent, "
        + "and a stream cannot be sent again"
      return connectionFailure(.connectionLost, code: code, detail)
    }
    let detail = easy?.message(for: code) ?? String(cString: ccurl_easy_strerror(code))
    if code == CCURLE_BAD_CONTENT_ENCODING,
      let transferEncoding = response?.headerFields.values(for: "Transfer-Encoding"),
      ResponseFraming.hasTransferCoding(transferEncoding)
    {
      // libcurl decodes transfer codings itself, and words a failure as a content coding's.
      let underlying = CurlFailure(
        code: Int(code), detail: Redaction.standard.apply(toText: detail))
      return TransportFailure.undecodableTransferCoding(
        method: hop.method, url: hop.url, transferEncoding: transferEncoding,
        underlying: underlying, detail: underlying.description, code: Int(code))
    }
    let kind: TransportFailure.Kind
    switch code {
    case CCURLE_COULDNT_CONNECT: kind = .cannotConnect
    case CCURLE_COULDNT_RESOLVE_HOST, CCURLE_COULDNT_RESOLVE_PROXY: kind = .hostNotFound
    case CCURLE_PARTIAL_FILE, CCURLE_RECV_ERROR, CCURLE_SEND_ERROR, CCURLE_GOT_NOTHING,
      CCURLE_HTTP2, CCURLE_HTTP2_STREAM:
      kind = .connectionLost
    case CCURLE_UNSUPPORTED_PROTOCOL, CCURLE_WEIRD_SERVER_REPLY, CCURLE_BAD_CONTENT_ENCODING:
      kind = .malformedResponse
    case CCURLE_SSL_CONNECT_ERROR, CCURLE_SSL_CERTPROBLEM, CCURLE_SSL_CIPHER,
      CCURLE_PEER_FAILED_VERIFICATION, CCURLE_SSL_CACERT_BADFILE, CCURLE_SSL_ISSUER_ERROR,
      CCURLE_SSL_ENGINE_NOTFOUND, CCURLE_SSL_PINNEDPUBKEYNOTMATCH:
      kind = .tls
    case CCURLE_PROXY: kind = .proxy
    default: kind = .other
    }
    // libcurl's own timeout is one a new attempt may pass, whatever its kind.
    return CurlFailure.make(
      kind, method: hop.method, url: hop.url, code: Int(code), detail: detail,
      isTransient: code == CCURLE_OPERATION_TIMEDOUT ? true : nil,
      explanation: code == CCURLE_OPERATION_TIMEDOUT ? "the connection timed out" : nil)
  }
}
