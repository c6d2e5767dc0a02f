internal import CCurl
import EndpointKernel

/// The client-wide options of server deployments: a client certificate, pinned public keys, a
/// connect timeout, a Unix socket and the client's cookie store, set once on each handle with its baseline.
extension CurlTransfer {
  func applyConnectionOptions(_ handle: EasyHandle) {
    let easy = handle.pointer
    let settings = loop.settings
    loop.cookieStore?.attach(handle)
    if let certificate = settings.tls.clientCertificate {
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_SSLCERTTYPE, "PEM")
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_SSLCERT, certificate.certificatePath)
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_SSLKEYTYPE, "PEM")
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_SSLKEY, certificate.privateKeyPath)
      if let password = certificate.privateKeyPassword {
        // libcurl copies the string; it is never logged.
        _ = ccurl_easy_setopt_string(easy, CCURLOPT_KEYPASSWD, password)
      }
    }
    if !settings.tls.pinnedPublicKeys.isEmpty {
      let pins = settings.tls.pinnedPublicKeys.map(\.description).joined(separator: ";")
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_PINNEDPUBLICKEY, pins)
    }
    if let timeout = settings.connectTimeout {
      _ = ccurl_easy_setopt_long(
        easy, CCURLOPT_CONNECTTIMEOUT_MS, CLong(timeout.millisecondsRoundedUp))
    }
    if let path = settings.unixSocketPath {
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_UNIX_SOCKET_PATH, path)
    }
  }

  /// Has libcurl call for the request's trailer fields after the last chunk of a body sent
  /// without a declared length (`chunked`).
  func configureRequestTrailers(_ easy: OpaquePointer, context: UnsafeMutableRawPointer) {
    guard hop.trailerFields != nil, hop.body.length == nil else { return }
    _ = ccurl_easy_setopt_trailer_callback(easy, CCURLOPT_TRAILERFUNCTION) { list, context in
      guard let list, let context else { return CCURL_TRAILERFUNC_ABORT }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
      guard let fields = transfer.hop.trailerFields?() else { return CCURL_TRAILERFUNC_OK }
      for field in fields {
        // HTTPFields holds only valid names and values: no line ends reach the wire.
        list.pointee = ccurl_slist_append(list.pointee, "\(field.name): \(field.value)")
      }
      return CCURL_TRAILERFUNC_OK
    }
    _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_TRAILERDATA, context)
  }

  /// The error for a transfer libcurl ended with `code`: the SDK's connect timeout when that is
  /// what expired, a TLS failure named as such, or libcurl's failure.
  func failure(endingWith code: Int32) -> any Error {
    if code == CCURLE_OPERATION_TIMEDOUT, let limit = loop.settings.connectTimeout {
      // The connect timeout is the only libcurl timeout the client sets.
      return TransportFailure.connectTimeout(method: hop.method, url: hop.url, limit: limit)
    }
    let failure = curlFailure(code)
    let detail = (failure.underlyingError as? CurlFailure)?.detail ?? ""
    switch code {
    case CCURLE_SSL_PINNEDPUBKEYNOTMATCH:
      return connectionFailure(
        .tls,
        code: code,
        "public-key pinning: the server's key matches none of the "
          + "\(loop.settings.tls.pinnedPublicKeys.count) pinned keys (\(detail))"
      )
    case CCURLE_RECV_ERROR, CCURLE_SEND_ERROR, CCURLE_GOT_NOTHING:
      if Self.isTLSAlert(detail) {
        // Under TLS 1.3 a server that refuses the client's certificate says so with an alert
        // after the client's side of the handshake is done: libcurl reports a failed read.
        return connectionFailure(.tls, code: code, detail)
      }
      if refusedAfterHandshake {
        return connectionFailure(
          .tls,
          code: code,
          "the server closed a new connection right after the TLS handshake, before any "
            + "answer: under TLS 1.3 this is how a server refuses the client certificate "
            + "(\(detail))"
        )
      }
      return failure
    default:
      return failure
    }
  }

  /// Whether the hop lost a connection it opened itself after completing the TLS handshake and
  /// before a byte of the answer: under TLS 1.3 the server's verdict on the client's
  /// certificate (or its absence) comes after the handshake, and its alert may be lost with
  /// the connection.
  private var refusedAfterHandshake: Bool {
    guard headBytes == 0,
      hop.url.scheme?.lowercased() == "https", let handle = easy
    else { return false }
    var connects = 0
    guard ccurl_easy_getinfo_long(handle.pointer, CCURLINFO_NUM_CONNECTS, &connects) == CCURLE_OK
    else { return false }
    var handshake: Int64 = 0
    guard
      ccurl_easy_getinfo_off_t(handle.pointer, CCURLINFO_APPCONNECT_TIME_T, &handshake)
        == CCURLE_OK
    else { return false }
    return connects > 0 && handshake > 0
  }

  /// Whether libcurl's message reports a TLS alert from the peer (OpenSSL's "tlsv13 alert
  /// certificate required", "sslv3 alert bad certificate"), rather than a lost connection.
  static func isTLSAlert(_ message: String) -> Bool {
    message.contains("SSL routines") && message.contains(" alert ")
  }
}
