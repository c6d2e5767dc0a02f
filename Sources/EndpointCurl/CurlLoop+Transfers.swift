internal import CCurl

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The loop's side of each transfer on the loop thread: attaching it to a pooled easy handle,
/// collecting the handles libcurl finished, checking timeouts, retiring transfers, and the
/// pool of easy handles.
extension CurlLoop {
  /// Makes the connections `handle` opens keep the poller informed of their sockets (part of
  /// every handle's shared options).
  func watchSockets(of handle: EasyHandle) {
    poller.attach(handle.pointer)
  }

  func attach(_ transfer: CurlTransfer) {
    guard transfer.isLive else {
      retire(transfer)
      return
    }
    transfer.activeIndex = active.count
    active.append(transfer)
    guard let handle = checkout() else {
      transfer.failOnLoop(
        transfer.connectionFailure(.other, code: 0, "libcurl could not make a handle"))
      retire(transfer)
      return
    }
    handle.transfer = transfer
    transfer.easy = handle
    start(transfer, on: handle)
    if let expiry = transfer.firstExpiry() {
      nextTimeoutCheck = min(nextTimeoutCheck ?? expiry, expiry)
    }
  }

  private func start(_ transfer: CurlTransfer, on handle: EasyHandle) {
    if let failure = transfer.configure(handle) {
      transfer.failOnLoop(failure)
      retire(transfer)
      return
    }
    let code = ccurl_multi_add_handle(multi, handle.pointer)
    guard code == CCURLM_OK else {
      let message = String(cString: ccurl_multi_strerror(code))
      transfer.failOnLoop(
        transfer.connectionFailure(.other, code: 0, "curl_multi_add_handle: \(message)"))
      retire(transfer)
      return
    }
    handle.inMulti = true
  }

  func collectFinished() {
    var easy: OpaquePointer?
    var result: Int32 = 0
    while ccurl_multi_next_done(multi, &easy, &result) == 1 {
      guard let easy, let handle = EasyHandle.owner(of: easy), let transfer = handle.transfer
      else { continue }
      end(transfer, on: handle, code: result)
    }
  }

  private func end(_ transfer: CurlTransfer, on handle: EasyHandle, code: Int32) {
    switch transfer.transferEnded(code: code) {
    case .retire:
      retire(transfer)
    case .restart:
      _ = ccurl_multi_remove_handle(multi, handle.pointer)
      handle.inMulti = false
      transfer.endHop(on: handle)
      start(transfer, on: handle)
    }
  }

  /// Has the loop end `transfer`, whose response ended while its upload went on, when the
  /// current round ends (see `CurlTransfer+Duplex.swift`).
  func endAfterRound(_ transfer: CurlTransfer) {
    answeredTransfers.append(transfer)
  }

  /// Has the loop look, each round, for the close that ends `transfer`'s answer (see
  /// ``CurlTransfer/checkClosedAnswer()``); it waits at most ``closedAnswerCheck`` meanwhile.
  func watchClosedAnswer(_ transfer: CurlTransfer) {
    closedAnswers.append(transfer)
  }

  /// How long the loop waits between looks for the close of an answer.
  static let closedAnswerCheck: Int32 = 10

  /// Looks for the close that ends each watched answer.
  func checkClosedAnswers() {
    guard !closedAnswers.isEmpty else { return }
    closedAnswers.removeAll { !$0.checkClosedAnswer() }
  }

  /// Ends the transfers answered in this round as complete, unless they ended meanwhile.
  func endAnswered() {
    guard !answeredTransfers.isEmpty else { return }
    let answered = answeredTransfers
    answeredTransfers.removeAll(keepingCapacity: true)
    for transfer in answered where !transfer.retired && transfer.answerEndScheduled {
      guard let handle = transfer.easy, handle.inMulti else { continue }
      end(transfer, on: handle, code: CCURLE_OK)
    }
  }

  func checkTimeouts() {
    guard let check = nextTimeoutCheck else { return }
    guard check <= now else { return }
    nextTimeoutCheck = nil
    var expired: [(CurlTransfer, any Error)] = []
    for transfer in active {
      switch transfer.timeoutCheck(now: now) {
      case .expired(let error): expired.append((transfer, error))
      case .next(let instant): nextTimeoutCheck = min(nextTimeoutCheck ?? instant, instant)
      case .none: break
      }
    }
    for (transfer, error) in expired {
      transfer.failOnLoop(error)
      retire(transfer)
    }
  }

  /// Ends a transfer's life on the loop: detaches and recycles its handle, forgets it and
  /// reports its metrics. Safe to call more than once.
  func retire(_ transfer: CurlTransfer) {
    guard !transfer.retired else { return }
    transfer.retired = true
    var curlInfo: CurlTransfer.CurlInfo?
    if let handle = transfer.easy {
      if transfer.options.metricsObserver != nil { curlInfo = transfer.curlInfo(handle) }
      if handle.inMulti {
        _ = ccurl_multi_remove_handle(multi, handle.pointer)
        handle.inMulti = false
      }
      transfer.endHop(on: handle)
      if transfer.sawSetCookie, cookieStore == nil {
        // Cookies carried along a redirect chain must not reach another exchange.
        _ = ccurl_easy_setopt_string(handle.pointer, CCURLOPT_COOKIELIST, "ALL")
      }
      handle.transfer = nil
      transfer.easy = nil
      checkin(handle)
    }
    let index = transfer.activeIndex
    if index >= 0, index < active.count, active[index] === transfer {
      let last = active.removeLast()
      if index < active.count {
        active[index] = last
        last.activeIndex = index
      }
    }
    transfer.activeIndex = -1
    transfer.retire(curlInfo: curlInfo)
  }

  private func checkout() -> EasyHandle? {
    if let handle = pool.popLast() {
      pooledHandles.subtract(1, ordering: .relaxed)
      return handle
    }
    guard let handle = EasyHandle() else { return nil }
    liveHandles.add(1, ordering: .relaxed)
    return handle
  }

  private func checkin(_ handle: EasyHandle) {
    guard pool.count < settings.handlePoolLimit, !stopping else {
      liveHandles.subtract(1, ordering: .relaxed)
      return  // deinit cleans it up
    }
    pool.append(handle)
    pooledHandles.add(1, ordering: .relaxed)
  }
}
