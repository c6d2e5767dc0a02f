// The names the samples of SignedAPIs.md assume.
import EndpointCore
import EndpointDefaultClient
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

let keyID = "AKIAIOSFODNN7EXAMPLE"
let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
let endpointURL = URL(string: "http://127.0.0.1:9000")!

/// Stands in for CryptoKit's or swift-crypto's SHA-256; the samples are only type-checked.
func sha256Hex(_ bytes: [UInt8]) -> String { "" }

/// Stands in for an HMAC-SHA256.
func hmacSHA256(key: [UInt8], _ message: some Sequence<UInt8>) -> [UInt8] { [] }

/// `20260101T120000Z`.
func amzDate(_ date: Date) -> String { "" }

extension Sequence<UInt8> {
  var hex: String { "" }
}

/// Stands in for the signed client of the article; the samples are only type-checked.
struct SampleClient: HTTPClient {
  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    (HTTPResponse(status: 200), HTTPBody(Data()))
  }
}

let client = SampleClient()
