import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a transport does with a response body: the one choice between `send` and `download`.
package enum TransferMode: Sendable {
  /// Hands the body to the caller as an ``HTTPBody``.
  case stream
  /// Writes a body with an accepted status to `destination`; any other status fails with
  /// ``UnexpectedResponse``.
  case download(destination: URL, accepted: AcceptedStatus)
}
