import EndpointCore
import EndpointKernel
import Foundation
import Testing

/// A transfer's options: the request's own settings where it has them, else the client's.
@Suite struct TransferOptionsTests {
  private func options(for request: HTTPRequest) -> TransferOptions {
    TransferOptions(
      for: request,
      clientIdleTimeout: .seconds(30),
      clientDeadline: .seconds(60),
      clientRedirectPolicy: .follow(upTo: 5).droppingAcrossOrigins(["X-Api-Key"]),
      clientMaximumResponseSize: 1000,
      bodyBufferLimit: 256,
      inlineBodyLimit: 64,
      metricsObserver: nil,
      uploadProgress: nil,
      downloadProgress: nil
    )
  }

  @Test func aPlainRequestTakesTheClientsSettings() throws {
    let request = HTTPRequest(method: .get, url: try #require(URL(string: "https://a.test/")))
    let options = options(for: request)
    #expect(options.idleTimeout == .seconds(30))
    #expect(options.deadline == .seconds(60))
    #expect(options.redirectLimit == 5)
    #expect(options.credentialFieldNames == ["x-api-key"])
    #expect(options.maximumResponseSize == 1000)
    #expect(options.bodyBufferLimit == 256)
    #expect(options.inlineBodyLimit == 64)
    #expect(options.uploadProgress == nil)
  }

  @Test func aRequestsOwnSettingsWin() throws {
    var request = HTTPRequest(method: .get, url: try #require(URL(string: "https://a.test/")))
    request.timeout = .seconds(3)
    request.options.idleTimeout = .limited(.seconds(2))
    request.options.redirectPolicy = .doNotFollow
    request.options.maximumResponseSize = .unlimited
    let options = options(for: request)
    #expect(options.idleTimeout == .seconds(2))
    #expect(options.deadline == .seconds(3))
    #expect(options.redirectLimit == nil)
    #expect(options.credentialFieldNames.isEmpty)
    #expect(options.maximumResponseSize == nil)
  }
}
