import EndpointCore
import EndpointKernel
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The errors for responses that are not valid HTTP say what happened, without credentials.
@Suite struct ResponseRefusalErrorTests {
  private let url = URL(string: "http://user:secret@api.example.com/v1/items?token=abc")!

  @Test func invalidContentLengthNamesTheValue() {
    let error = TransportFailure.invalidContentLength(method: .get, url: url, value: "5, 10")
    #expect(error.description.contains("\"5, 10\""))
    #expect(error.description.contains("Content-Length"))
    #expect(!error.description.contains("secret"))
    #expect(!error.isTransient)
  }

  @Test func aVeryLongValueIsShortenedInTheDescription() {
    let error = TransportFailure.invalidContentLength(
      method: .get, url: url, value: String(repeating: "9", count: 500))
    #expect(error.description.count < 400)
  }

  @Test func anUnrequestedProtocolSwitchNamesTheProtocol() {
    let error = TransportFailure.unrequestedProtocolSwitch(
      method: .get, url: url, upgrade: "websocket")
    #expect(error.description.contains("101"))
    #expect(error.description.contains("websocket"))
    #expect(!error.description.contains("secret"))
    let bare = TransportFailure.unrequestedProtocolSwitch(method: .get, url: url, upgrade: nil)
    #expect(!bare.description.contains("nil"))
  }

  @Test func aMalformedResponseSaysWhy() {
    let error = TransportFailure.malformedResponse(
      method: .post, url: url, reason: "no HTTP status line")
    #expect(error.description.contains("no HTTP status line"))
    #expect(error.description.hasPrefix("POST "))
    #expect(!error.description.contains("secret"))
    #expect(!error.isTransient)
  }
}
