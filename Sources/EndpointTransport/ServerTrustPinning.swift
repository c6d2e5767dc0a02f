#if canImport(Darwin) && canImport(Security) && canImport(CryptoKit)
  import CryptoKit
  import Foundation
  import Security

  /// Public-key pinning for URLSession on Apple platforms, where the session delegate receives
  /// server-trust challenges. (On Linux URLSession sends none; see
  /// `URLSessionHTTPClient.Configuration.pinnedPublicKeys`.)
  enum ServerTrustPinning {
    /// Whether the system trusts the chain and the leaf's public key matches one of `pins`.
    static func evaluate(_ trust: SecTrust, pins: [PublicKeyPin]) -> Bool {
      var error: CFError?
      guard SecTrustEvaluateWithError(trust, &error) else { return false }
      guard let key = leafKey(of: trust), let digest = spkiDigest(of: key) else { return false }
      return pins.contains { $0.sha256 == digest }
    }

    private static func leafKey(of trust: SecTrust) -> SecKey? {
      if #available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *) {
        guard let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate],
          let leaf = chain.first
        else { return nil }
        return SecCertificateCopyKey(leaf)
      }
      return SecTrustCopyKey(trust)
    }

    /// SHA-256 of the key's DER SubjectPublicKeyInfo: the key's raw form (PKCS#1 for RSA, an
    /// X9.63 point for EC) behind the ASN.1 header of its algorithm and size.
    private static func spkiDigest(of key: SecKey) -> [UInt8]? {
      guard let attributes = SecKeyCopyAttributes(key) as? [CFString: Any],
        let type = attributes[kSecAttrKeyType] as? String,
        let bits = attributes[kSecAttrKeySizeInBits] as? Int,
        let raw = SecKeyCopyExternalRepresentation(key, nil) as Data?,
        let header = spkiHeader(type: type, bits: bits)
      else { return nil }
      return Array(SHA256.hash(data: Data(header) + raw))
    }

    private static func spkiHeader(type: String, bits: Int) -> [UInt8]? {
      switch (type, bits) {
      case (kSecAttrKeyTypeRSA as String, 2048):
        [
          0x30, 0x82, 0x01, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
          0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x01, 0x0f, 0x00,
        ]
      case (kSecAttrKeyTypeRSA as String, 4096):
        [
          0x30, 0x82, 0x02, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
          0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x02, 0x0f, 0x00,
        ]
      case (kSecAttrKeyTypeECSECPrimeRandom as String, 256):
        [
          0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06,
          0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        ]
      case (kSecAttrKeyTypeECSECPrimeRandom as String, 384):
        [
          0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06,
          0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00,
        ]
      default: nil
      }
    }
  }
#endif
