import Foundation
import Testing

@testable import EndpointCore

/// URLs carried inside a value of another URL (`?next=…`, `?redirect_uri=…`) lose their own
/// user information and secret query values, by the same rule, wherever the outer URL is shown.
@Suite struct NestedURLRedactionTests {
  /// The text `Redaction.redactedURL` and fixtures use: a replacement that keeps a URL valid.
  private static func encodedRedaction(_ text: String) -> (text: String, removed: [String]) {
    var removed: [String] = []
    let result = URLRedaction.redacted(
      text: text, hidingUserInfo: true, replacement: "%3Credacted%3E",
      hidesQueryItem: { URLRedaction.isSensitiveQueryName($0) }, removed: &removed)
    return (result, removed)
  }

  private static let unreserved = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

  /// `url` inside `levels` more URLs, each holding the one inside as its `next` query value,
  /// percent-encoded as a query value is.
  private static func wrapped(_ url: String, levels: Int) -> String {
    var text = url
    for level in 1...levels {
      let encoded = text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
      text = "https://level\(level).example/cb?page=\(level)&next=\(encoded)"
    }
    return text
  }

  @Test(arguments: [
    (
      "https://api.example.com/login?next=https%3A%2F%2Fuser%3Acanary%40other.example%2Fcb"
        + "%3Faccess_token%3Dcanary&page=2",
      "https://api.example.com/login?next=https%3A%2F%2F<redacted>%40other.example%2Fcb"
        + "%3Faccess_token%3D<redacted>&page=2"
    ),
    (
      "https://api.example.com/login?redirect_uri=https://other.example/?token=canary&page=2",
      "https://api.example.com/login?redirect_uri=https://other.example/?token=<redacted>&page=2"
    ),
    (
      "https://api.example.com/login?next=https://u:canary@other.example/cb",
      "https://api.example.com/login?next=https://<redacted>@other.example/cb"
    ),
    (
      // Another scheme with `//`, lower-case escapes.
      "https://a.example/x?target=wss%3a%2f%2fb.example%2fs%3fapi_key%3dcanary%26room%3d7",
      "https://a.example/x?target=wss%3a%2f%2fb.example%2fs%3fapi_key%3d<redacted>%26room%3d7"
    ),
    (
      // In a fragment pair and in a path parameter.
      "https://a.example/cb;next=https%3A%2F%2Fu%3Acanary%40b.example/x"
        + "#next=https%3A%2F%2Fb.example%2F%3Fcode%3Dcanary&state=1",
      "https://a.example/cb;next=https%3A%2F%2F<redacted>%40b.example/x"
        + "#next=https%3A%2F%2Fb.example%2F%3Fcode%3D<redacted>&state=1"
    ),
  ])
  func aNestedURLLosesItsSecrets(_ input: String, _ expected: String) throws {
    #expect(Redaction.redacted(try makeURL(input)) == expected)
  }

  @Test func aURLNestedTwiceLosesItsSecrets() throws {
    let input =
      "https://a.example/x?next=https%3A%2F%2Fb.example%2F%3Fnext%3Dhttps%253A%252F%252F"
      + "u%253Acanary%2540c.example%252F%253Ftoken%253Dcanary%2526page%253D3&page=1"
    let expected =
      "https://a.example/x?next=https%3A%2F%2Fb.example%2F%3Fnext%3Dhttps%253A%252F%252F"
      + "<redacted>%2540c.example%252F%253Ftoken%253D<redacted>%2526page%253D3&page=1"
    #expect(Redaction.redacted(try makeURL(input)) == expected)
    // A value encoded twice at the top: decoded once it is not a URL yet.
    let twice = "https://a.example/x?next=https%253A%252F%252Fu%253Acanary%2540c.example"
    #expect(
      Redaction.redacted(try makeURL(twice))
        == "https://a.example/x?next=https%253A%252F%252F<redacted>%2540c.example")
  }

  @Test func everyLevelUpToTheBoundIsReadAndKept() throws {
    let secret = "https://u:canary-pw@secret.example/p?token=canary-q&page=0"
    // Three URLs inside the outer one: the deepest is still read, its host kept.
    let text = Self.wrapped(secret, levels: 3)
    let (redacted, removed) = Self.encodedRedaction(text)
    #expect(!redacted.contains("canary"), "\(redacted)")
    #expect(redacted.contains("secret.example"))
    for level in 1...3 { #expect(redacted.contains("level\(level).example")) }
    #expect(URL(string: redacted) != nil, "\(redacted)")
    #expect(removed.contains("canary-pw") && removed.contains("canary-q"))
  }

  @Test func aValuePastTheBoundIsHiddenWhole() throws {
    let secret = "https://u:canary-pw@secret.example/p?token=canary-q"
    for levels in [4, 5, 40] {
      let text = Self.wrapped(secret, levels: levels)
      let (redacted, _) = Self.encodedRedaction(text)
      #expect(!redacted.contains("canary"), "\(levels) levels: \(redacted)")
      // The deepest URL read whole is gone; the outer four stay readable.
      #expect(!redacted.contains("secret.example"))
      for level in (levels - 3)...levels {
        #expect(redacted.contains("level\(level).example"), "\(levels) levels: \(redacted)")
      }
      #expect(URL(string: redacted) != nil, "\(redacted)")
      #expect(!Redaction.redacted(try makeURL(text)).contains("canary"))
    }
  }

  @Test(arguments: [
    "https://a.example/x?q=a%3Ab&time=12:30&path=%2Fhome%2Fx&note=https%3A&p=50%25",
    "https://a.example/x?contact=mailto%3Aa%40b.example&q=see%20https%3A%20docs",
    "https://a.example/x?q=a%2Bb%3Dc%26d&r=http%3A%2Fb.example&s=%3A%2F%2F",
    "https://a.example/x;v=a%3Ab?q=%C3%A9t%C3%A9#frag=1%3A2",
  ])
  func valuesThatAreNotURLsAreKeptByteForByte(_ input: String) throws {
    #expect(Redaction.redacted(try makeURL(input)) == input)
    #expect(Self.encodedRedaction(input).text == input)
  }

  @Test(arguments: [
    "https://a.example/login?next=https%3a%2f%2fother.example%2fcb%3fpage%3d2%26q%3d%25C3%25A9",
    "https://a.example/login?redirect_uri=https://other.example/cb?page=2&x=1",
    "https://a.example/login?next=https%3A%2F%2Fother.example%2F%3Fnext%3Dhttps%253A%252F%252Fc",
  ])
  func aNestedURLWithoutSecretsIsKeptByteForByte(_ input: String) throws {
    #expect(Redaction.redacted(try makeURL(input)) == input)
    #expect(Self.encodedRedaction(input).text == input)
  }

  @Test func malformedPercentEncodingHidesTheValueStill() throws {
    let cases = [
      (
        "https://a.example/x?next=https%3A%2F%2Fb.example%2F%3Ftoken%3Dcanary%ZZ%4&page=1",
        "https://a.example/x?next=https%3A%2F%2Fb.example%2F%3Ftoken%3D<redacted>&page=1"
      ),
      (
        // Escapes of bytes that are not UTF-8 stay escaped inside the value.
        "https://a.example/x?next=https%3A%2F%2Fu%3Acan%FF%C3ary%40b.example%2F&page=1",
        "https://a.example/x?next=https%3A%2F%2F<redacted>%40b.example%2F&page=1"
      ),
      (
        "https://a.example/x?next=https%3A%2F%2Fb.example%2F%3Fkey%3Dcanary%",
        "https://a.example/x?next=https%3A%2F%2Fb.example%2F%3Fkey%3D<redacted>"
      ),
    ]
    for (input, expected) in cases {
      // Foundation refuses some of these as URLs; logs and fixtures meet them as text.
      let (redacted, removed) = Self.encodedRedaction(input)
      #expect(
        redacted == expected.replacingOccurrences(of: "<redacted>", with: "%3Credacted%3E"))
      #expect(!removed.isEmpty)
    }
  }

  @Test func redactingTwiceChangesNothingMore() throws {
    let input =
      "https://a.example/x?next=https%3A%2F%2Fu%3Acanary%40b.example%2F%3Ftoken%3Dcanary&page=1"
    let once = Self.encodedRedaction(input)
    let twice = Self.encodedRedaction(once.text)
    #expect(twice.text == once.text)
    #expect(!twice.removed.contains { $0.contains("canary") })
    #expect(once.removed.contains("canary"))
  }

  @Test func everySurfaceUsesTheRule() throws {
    let url = try makeURL(
      "https://a.example/x?next=https%3A%2F%2Fu%3Acanary%40b.example%2F%3Ftoken%3Dcanary")
    let request = HTTPRequest(method: .get, url: url)
    #expect(!"\(request)".contains("canary"))
    #expect(!request.curlCommand().contains("canary"))
    #expect(!Redaction.standard.apply(to: url).contains("canary"))
    let kept = Redaction.standard.redactedURL(url)
    #expect(!kept.absoluteString.contains("canary"))
    #expect(kept.host == "a.example")
    let fields = Redaction.standard.apply(
      to: try HTTPFields([("Location", url.absoluteString)]))
    #expect(fields["Location"]?.contains("canary") == false)
  }

  @Test func aURLInAFormFieldLosesItsSecrets() throws {
    let body = Data(
      "redirect_uri=https%3A%2F%2Fu%3Acanary%40b.example%2Fcb%3Fcode%3Dcanary&user=ada".utf8)
    let redacted = Redaction.standard.apply(
      toBody: body, contentType: "application/x-www-form-urlencoded")
    #expect(
      String(decoding: redacted, as: UTF8.self)
        == "redirect_uri=https%3A%2F%2F<redacted>%40b.example%2Fcb%3Fcode%3D<redacted>&user=ada")
  }
}
