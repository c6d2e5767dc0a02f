import EndpointKernel
import EndpointPrimitives
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// URLSession's delegate callbacks, routed here by ``TaskRouter`` from the session's serial
/// queue: the response head, body bytes, upload progress, redirects and the task's end.
extension Transfer {
  // MARK: - Delegate side

  func didReceive(_ urlResponse: URLResponse, task: URLSessionTask) {
    options.cookies?.store(from: urlResponse)
    let now = ContinuousClock.now
    let effects = state.withVisibleLock { state -> Effects in
      guard state.outcome == nil, state.task === task, state.redirect == nil else {
        return Effects()
      }
      state.lastActivity = now
      let response = FoundationResponseHead(urlResponse)
      // Foundation on Linux reports the interim heads libcurl reads (`100 Continue` to a
      // request with `Expect: 100-continue`), then the final one: only the final one counts.
      if response.isInterim { return Effects() }
      let answered = response.url ?? state.hop.url
      if let refusal = response.refusal(
        method: state.hop.method,
        url: answered,
        request: state.hop.headerFields
      ) {
        return state.terminate(with: refusal)
      }
      state.response = response
      state.responseStart = now
      let declared = response.declaredBodyLength(method: state.hop.method)
      state.expectedLength = declared
      if let limit = options.maximumResponseSize, let declared, declared > Int64(limit) {
        return state.terminate(
          with: TransportFailure.responseTooLarge(limit: limit, received: declared))
      }
      switch mode {
      case .download(let destination, let accepted):
        guard accepted.contains(response.status) else {
          state.delivery = .errorBody
          return Effects()
        }
        do {
          state.delivery = .file(try DownloadFile(destination: destination))
        } catch {
          return state.terminate(with: error)
        }
        return Effects()
      case .stream:
        if let declared, declared <= Int64(options.inlineBodyLimit) {
          state.delivery = .inline
          return Effects()
        }
        return state.startStreaming(body: streamBody(length: declared))
      }
    }
    perform(effects)
  }

  func didReceive(_ data: Data, task: URLSessionTask) {
    let now = ContinuousClock.now
    var file: DownloadFile?
    var progress: TransferProgress?
    let effects = state.withVisibleLock { state -> Effects in
      guard state.outcome == nil, state.task === task else { return Effects() }
      state.lastActivity = now
      state.bytesReceived += Int64(data.count)
      guard state.redirect == nil else { return Effects() }
      if state.firstByte == nil { state.firstByte = now }
      state.hopBytesReceived += Int64(data.count)
      if let limit = options.maximumResponseSize, state.hopBytesReceived > Int64(limit) {
        return state.terminate(
          with: TransportFailure.responseTooLarge(limit: limit, received: state.hopBytesReceived)
        )
      }
      switch state.delivery {
      case .pending, .inline:
        // A small body usually arrives in one piece: keep that piece rather than copy it.
        if state.inlineData.isEmpty {
          state.inlineData = data
        } else {
          state.inlineData.append(data)
        }
        if state.inlineData.count > options.inlineBodyLimit, state.head != nil,
          state.delivery == .inline
        {
          // A compressed body grew past its declared length: stream it after all.
          let buffered = state.inlineData
          state.inlineData = Data()
          state.unread.append(buffered)
          return state.startStreaming(body: streamBody(length: nil))
        }
      case .streaming:
        if let waiter = state.waiter {
          state.waiter = nil
          var effects = Effects()
          effects.waiter = (waiter, .success(data))
          return effects
        }
        state.unread.append(data)
        if state.unread.bufferedBytes > options.bodyBufferLimit {
          let url = state.response?.url ?? state.hop.url
          return state.terminate(
            with: TransportFailure.bufferOverflow(
              method: state.hop.method,
              url: url,
              limit: options.bodyBufferLimit
            )
          )
        }
      case .file(let target):
        file = target
        if options.downloadProgress != nil {
          progress = TransferProgress(
            completed: state.hopBytesReceived,
            expected: state.expectedLength
          )
        }
      case .errorBody:
        if state.inlineData.count < 1024 * 1024 { state.inlineData.append(data) }
      }
      return Effects()
    }
    perform(effects)
    if let file {
      do {
        try file.write(data)
      } catch {
        fail(with: error)
        return
      }
    }
    if let progress { options.downloadProgress?(progress) }
  }

  func didSendBodyData(totalBytesSent: Int64, totalBytesExpected: Int64, task: URLSessionTask) {
    let now = ContinuousClock.now
    let live = state.withVisibleLock { state -> Bool in
      guard state.outcome == nil, state.task === task else { return false }
      state.lastActivity = now
      state.hopBytesSent = totalBytesSent
      return true
    }
    if live, let uploadProgress = options.uploadProgress {
      uploadProgress(
        TransferProgress(
          completed: totalBytesSent,
          expected: totalBytesExpected > 0 ? totalBytesExpected : nil
        )
      )
    }
  }

  /// A redirect arrived. The SDK always tells URLSession not to follow it (so the 3xx comes in
  /// as an ordinary response); when the policy follows it, the 3xx is ignored and, once its
  /// task completes, a new task sends the request built by ``RedirectRule``.
  ///
  /// - Returns: whether URLSession's redirect completion handler may be called. URLSession on
  ///   Linux crashes the process when a cancellation reaches the task between this callback and
  ///   the handler's answer (the answer then finds the task no longer waiting for it). So once a
  ///   cancellation of the task has been sent, the handler is never called (the cancellation
  ///   completes the task); once the handler is called, the task is never cancelled (its 3xx
  ///   was received whole, and it completes by itself at once).
  func willRedirect(
    _ response: HTTPURLResponse,
    to newRequest: URLRequest,
    task: URLSessionTask
  ) -> Bool {
    let answer = state.withVisibleLock { state -> Bool in
      guard state.task === task else { return true }
      if state.taskCancelSent { return false }
      state.redirectAnswered = true
      return true
    }
    guard answer else { return false }
    // Stored before the next request is made, which URLSession gives the stored cookies.
    options.cookies?.store(from: response)
    guard let limit = options.redirectLimit,
      RedirectRule.isFollowed(response.statusCode)
    else { return true }
    // Foundation joins repeated fields with ", ", which a URL never holds (a space is not a URI
    // character): split, it gives each Location field back.
    let locationValues =
      response.value(forHTTPHeaderField: "Location")?
      .components(separatedBy: ", ") ?? []
    let now = ContinuousClock.now
    let effects = state.withVisibleLock { state -> Effects in
      guard state.outcome == nil, state.task === task else { return Effects() }
      state.lastActivity = now
      let location: URL
      do {
        let value = try RedirectRule.location(
          in: locationValues,
          status: response.statusCode,
          method: state.hop.method,
          url: state.hop.url
        )
        location = try RedirectRule.location(
          value ?? "", relativeTo: state.hop.url, status: response.statusCode)
      } catch {
        return state.terminate(with: error)
      }
      if let reason = EnvironmentProxy.refusal(
        for: location, allowed: options.allowsEnvironmentProxy)
      {
        return state.terminate(
          with: InvalidRequest.unsupported(method: state.hop.method, url: location, reason: reason))
      }
      if state.chain.count > limit {
        return state.terminate(
          with: TransportFailure.tooManyRedirects(
            method: method, limit: limit, chain: state.chain + [location])
        )
      }
      do {
        state.redirect = try RedirectRule.next(
          after: state.hop,
          status: response.statusCode,
          location: location,
          credentialFieldNames: options.credentialFieldNames
        )
        state.chain.append(location)
      } catch {
        return state.terminate(with: error)
      }
      return Effects()
    }
    perform(effects)
    return true
  }

  /// An authentication challenge was answered with "cancel" so that the 401 reaches the caller;
  /// the cancellation URLSession then reports ends the body normally.
  func noteChallengeCancelled(task: URLSessionTask) {
    state.withVisibleLock { state in
      if state.task === task { state.challengeCancelled = true }
    }
  }

  func didComplete(task: URLSessionTask, error: (any Error)?) {
    // Foundation on Linux reports no head for a 301, 302, 303, 307 or 308 without `Location`:
    // it holds the head back to redirect, finds no target and completes the task. That 3xx is
    // the final response, as the curl client returns it; the task keeps its head.
    if error == nil, let head = task.response as? HTTPURLResponse,
      (300..<400).contains(head.statusCode), head.value(forHTTPHeaderField: "Location") == nil,
      state.withVisibleLock({ $0.task === task && $0.response == nil && $0.redirect == nil })
    {
      didReceive(head, task: task)
    }
    let now = ContinuousClock.now
    var next: Hop?
    var download: (DownloadFile, TransferHeadContinuation?, FoundationResponseHead)?
    let effects = state.withVisibleLock { state -> Effects in
      guard state.outcome == nil, state.task === task else { return Effects() }
      state.lastActivity = now
      let urlError = error.flatMap(Transfer.urlError(from:))
      let benignCancel =
        state.challengeCancelled && urlError?.code == .cancelled && !state.cancelRequested
      guard error == nil || benignCancel else {
        var effects = state.terminate(with: mapError(error, urlError, state: state, now: now))
        effects.cancelTask = nil  // already complete
        return effects
      }
      if let redirect = state.redirect {
        state.beginHop(redirect)
        next = redirect
        return Effects()
      }
      guard let response = state.response else {
        return state.terminate(
          with: TransportFailure.malformedResponse(
            method: state.hop.method,
            url: state.hop.url,
            reason: "the transfer ended without a response head"
          )
        )
      }
      switch state.delivery {
      case .file(let file):
        state.outcome = .finished
        download = (file, state.head, response)
        state.head = nil
        return Effects(stopTimer: true)
      case .errorBody:
        let accepted: AcceptedStatus
        if case .download(_, let set) = mode { accepted = set } else { accepted = .success }
        return state.terminate(
          with: UnexpectedResponse(
            method: state.hop.method,
            url: response.url ?? state.hop.url,
            response: response.converted,
            body: state.inlineData,
            accepted: accepted
          )
        )
      case .pending, .inline, .streaming:
        return state.finish()
      }
    }
    perform(effects)
    if let next {
      // Making and resuming a task waits on the session's work queue, which may be running this
      // callback (see InlineDelegateQueue).
      worker.submit({ self.launch(next) }, afterStop: { self.fail(with: CancellationError()) })
    } else if let (file, head, response) = download {
      do {
        try file.commit()
        deliverMetrics(state.withVisibleLock { $0.snapshot(error: nil) })
        removeTemporaryBodyFile()
        head?.resume(returning: (response, HTTPBody.empty))
      } catch {
        deliverMetrics(state.withVisibleLock { $0.snapshot(error: error) })
        removeTemporaryBodyFile()
        head?.resume(throwing: error)
      }
    }
  }
}
