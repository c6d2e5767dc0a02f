// The samples of TinyNetworking's README (`shared/seeds/003_…`), as written, against httpbin.
// Adapted: `Sendable` on the value types, the URLs' host (httpbin's `/response-headers` answers
// `{"name": …}` like GitHub's user, `/anything` takes Mailchimp's `PUT`), Mailchimp's `base` made
// `var` so the test can point it at httpbin, `UIImage` replaced by `PNGImage`, and XCTest's
// assertions written with Swift Testing.

import EndpointCore
import EndpointJSON
import EndpointTestSupport
import EndpointTransport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct User: Codable, Sendable {
  var name: String
  var location: String?
}

struct Mailchimp {
  var base = URL(string: "https://us7.api.mailchimp.com/3.0/")!
  var apiKey = env.mailchimpApiKey
  var authHeader: [String: String] {
    ["Authorization": "Basic " + "anystring:\(apiKey)".base64Encoded]
  }

  func addContent(for episode: Episode, toCampaign campaignId: String) -> Endpoint<()> {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    struct Edit: Codable {
      var plain_text: String
      var html: String
    }
    let body = Edit(plain_text: plainText(episode), html: html(episode))
    let url = base.appendingPathComponent("campaigns/\(campaignId)/content")
    return Endpoint<()>(json: .put, url: url, body: body, headers: authHeader)
  }
}

struct ImageError: Error {}

extension Endpoint where A == PNGImage {
  init(imageURL: URL) {
    self = Endpoint(.get, url: imageURL) { data in
      Result {
        guard let d = data, let i = PNGImage(data: d) else { throw ImageError() }
        return i
      }
    }
  }
}

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TinyNetworkingReadmeSeedTests {
  @Test func userEndpointLoadsWithACallbackAndWithAsyncAwait() async throws {
    let server = try TestServers.httpbin
    func userInfo(login: String) -> Endpoint<User> {
      return Endpoint(json: .get, url: URL(string: "\(server)/response-headers?name=\(login)")!)
    }

    let sample = userInfo(login: "objcio")
    let endpoint = sample

    let callbackResult = await withCheckedContinuation { continuation in
      URLSession.shared.load(endpoint) { result in
        print(result)
        continuation.resume(returning: result)
      }
    }
    #expect(try callbackResult.get().name == "objcio")

    let result = try await URLSession.shared.load(endpoint)
    #expect(result.name == "objcio" && result.location == nil)
  }

  @Test func mailchimpPutSendsTheBodyAndTheAuthorizationField() async throws {
    var mailchimp = Mailchimp()
    mailchimp.base = try TestServers.httpbin.appendingPathComponent("anything/3.0/")
    let endpoint = mailchimp.addContent(for: Episode(number: 7), toCampaign: "c42")

    let request = try endpoint.request()
    #expect(request.headerFields["Authorization"] == "Basic YW55c3RyaW5nOmtleS0xMjM=")
    #expect(request.url.path.hasSuffix("/anything/3.0/campaigns/c42/content"))

    try await URLSession.shared.load(endpoint)
  }

  @Test func imageEndpointLoadsAPNGFromTheServer() async throws {
    let url = try TestServers.httpbin.appendingPathComponent("image/png")
    let image = try await URLSession.shared.load(Endpoint(imageURL: url))
    #expect(image.data.count > 8)
  }

  @Test func imageEndpointIsTestedSynchronously() {
    let someURL = URL(string: "https://example.com/avatar.png")!
    let invalidData = Data("not an image".utf8)
    let validData = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])

    #expect(throws: (any Error).self) { try Endpoint(imageURL: someURL).parse(nil, nil).get() }
    #expect(throws: (any Error).self) {
      try Endpoint(imageURL: someURL).parse(invalidData, nil).get()
    }
    #expect(throws: Never.self) { try Endpoint(imageURL: someURL).parse(validData, nil).get() }
  }
}

/// The platform's image type, replaced: a PNG's bytes, checked by their signature.
struct PNGImage: Sendable {
  var data: Data

  init?(data: Data) {
    guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
    self.data = data
  }
}

/// What the README's Mailchimp sample takes from its app.
struct Episode {
  var number: Int
}

struct Environment {
  var mailchimpApiKey: String
}

let env = Environment(mailchimpApiKey: "key-123")

func plainText(_ episode: Episode) -> String { "Episode \(episode.number)" }

func html(_ episode: Episode) -> String { "<p>Episode \(episode.number)</p>" }

extension String {
  var base64Encoded: String { Data(utf8).base64EncodedString() }
}
