#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The SHA-256 digest of a server's public key (its DER `SubjectPublicKeyInfo`), which a
/// client may require the server to present.
///
/// A client configured with pins refuses any server whose certificate chain is valid but whose
/// key matches none of them, before a byte of the request is sent. Give two or more pins (the
/// current key and the next one) so that a key rotation does not cut clients off.
///
/// The text form is curl's and HPKP's: `sha256//` followed by the digest in base64. It can be
/// computed from a certificate with OpenSSL:
///
/// ```sh
/// openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der \
///   | openssl dgst -sha256 -binary | base64
/// ```
///
/// ```swift
/// let pin = try PublicKeyPin(
///   "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=")
/// ```
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
  /// The 32 bytes of the SHA-256 digest.
  public let sha256: [UInt8]

  /// Reads a pin from its text form, `sha256//` and the base64 digest (the prefix may be left
  /// out).
  ///
  /// - Parameter text: the pin, such as `sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=`.
  /// - Throws: ``InvalidRequest`` (`.publicKeyPin`) when the text is not base64 of 32 bytes.
  public init(_ text: String) throws(InvalidRequest) {
    var base64 = Substring(text)
    if base64.hasPrefix("sha256//") { base64 = base64.dropFirst("sha256//".count) }
    guard let digest = Data(base64Encoded: String(base64)), digest.count == 32 else {
      throw InvalidRequest.invalidPublicKeyPin(text)
    }
    sha256 = [UInt8](digest)
  }

  /// Makes a pin from the 32 bytes of a SHA-256 digest.
  ///
  /// - Parameter sha256: the digest of the key's DER `SubjectPublicKeyInfo`.
  /// - Throws: ``InvalidRequest`` (`.publicKeyPin`) when it is not 32 bytes long.
  public init(sha256: [UInt8]) throws(InvalidRequest) {
    guard sha256.count == 32 else {
      throw InvalidRequest.invalidPublicKeyPin("\(sha256.count) bytes")
    }
    self.sha256 = sha256
  }

  /// The base64 text of the digest.
  public var base64: String { Data(sha256).base64EncodedString() }

  /// `sha256//` and the base64 digest, the form curl reads.
  public var description: String { "sha256//" + base64 }
}
