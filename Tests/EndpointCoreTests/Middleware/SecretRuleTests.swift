import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct SecretRuleTests {
  @Test(arguments: [
    "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Session-Id", "X-Auth",
    "X-CSRF-Token", "X-Api_Key", "x-api-key", "API-Key", "password", "passwd", "secret", "token",
    "access_token", "refresh_token", "id_token", "client_secret", "api_key", "apikey",
    "accessToken", "X-Refresh-Token", "db_password", "Shared-Secret", "X-Amz-Signature",
    "X-Amz-Credential", "X-Amz-Security-Token", "X-Goog-Api-Key", "Private-Token",
    "Ocp-Apim-Subscription-Key", "subscription-key", "x-functions-key",
  ])
  func defaultRuleCallsCredentialNamesSecretAnywhere(name: String) {
    #expect(Redaction.isSecretName(name))
    #expect(Redaction.isSecretHeaderName(name))
    #expect(Redaction.isSecretQueryName(name))
    #expect(Redaction.standard.hidesJSONKey(name))
    #expect(Redaction.standard.hidesHeader(name))
    #expect(Redaction.standard.hidesQueryParameter(name))
  }

  @Test(arguments: [
    "Content-Type", "Accept", "X-Request-ID", "Location", "User-Agent", "author", "name",
    "Access-Control-Allow-Credentials", "id", "message", "Idempotency-Key",
  ])
  func ordinaryNamesAreNotSecret(name: String) {
    #expect(!Redaction.isSecretName(name))
    #expect(!Redaction.standard.hidesHeader(name))
  }

  @Test func codeAndKeyAreSecretInQueriesButNotAsJSONKeys() {
    #expect(Redaction.isSecretQueryName("code"))
    #expect(Redaction.isSecretQueryName("key"))
    #expect(!Redaction.standard.hidesJSONKey("code"))
    #expect(Redaction.standard.hidesQueryParameter("Code"))
  }

  @Test func jsonKeysAreHiddenAtAnyDepthWhateverTheContentType() {
    let body = Data(
      #"{"a":[{"password":"pw-1"}],"b":{"Access_Token":{"v":"t-2"}},"n":{"token":7},"ok":1}"#.utf8
    )
    let expected =
      #"{"a":[{"password":"<redacted>"}],"b":{"Access_Token":"<redacted>"},"n":{"token":"<redacted>"},"ok":1}"#
    for type in ["application/json", "text/plain", nil] {
      #expect(
        String(decoding: Redaction.standard.apply(toBody: body, contentType: type), as: UTF8.self)
          == expected)
    }
  }

  @Test func escapedKeysAreRecognisedAndStringsKeepTheirEscapes() {
    let body = Data(#"{"note":"a \"quoted\" word","pass\u0077ord":"x\u0079z"}"#.utf8)
    #expect(
      String(decoding: Redaction.standard.apply(toBody: body), as: UTF8.self)
        == #"{"note":"a \"quoted\" word","pass\u0077ord":"<redacted>"}"#)
  }

  @Test func aJSONBodyCutShortStillHidesTheSecretValue() {
    let body = Data(#"{"user":"ada","refresh_token":"abcdef"#.utf8)
    #expect(
      String(decoding: Redaction.standard.apply(toBody: body), as: UTF8.self)
        == #"{"user":"ada","refresh_token":"<redacted>""#)
  }

  @Test func formBodiesAreRecognisedByTypeOrContent() {
    let form = Data("grant_type=authorization_code&code=c0de-1&client_secret=s3c".utf8)
    let expected = "grant_type=authorization_code&code=<redacted>&client_secret=<redacted>"
    for type in ["application/x-www-form-urlencoded", "text/plain", nil] {
      #expect(
        String(decoding: Redaction.standard.apply(toBody: form, contentType: type), as: UTF8.self)
          == expected)
    }
    // Prose with an equals sign is not a form.
    let prose = Data("a = b, password: visible in prose".utf8)
    #expect(Redaction.standard.apply(toBody: prose) == prose)
  }

  @Test func multipartFieldsAreHiddenByNameAndJSONPartsByKey() throws {
    let payload = RequestPayload.multipart([
      .text(name: "user", value: "ada"),
      .text(name: "password", value: "mp-secret-1"),
      MultipartPart(
        name: "meta", contentType: "application/json", data: Data(#"{"api_key":"mp-key-2"}"#.utf8)),
    ])
    let body = try #require(payload.body?.data)
    let redacted = String(
      decoding: Redaction.standard.apply(toBody: body, contentType: payload.contentType),
      as: UTF8.self)
    #expect(!redacted.contains("mp-secret-1"))
    #expect(!redacted.contains("mp-key-2"))
    #expect(redacted.contains("ada"))
    #expect(redacted.contains(#"{"api_key":"<redacted>"}"#))
    // Without its Content-Type the body is still recognised by its delimiter line.
    let untyped = String(decoding: Redaction.standard.apply(toBody: body), as: UTF8.self)
    #expect(!untyped.contains("mp-secret-1"))
  }

  @Test func locationQueryCodeAndUserInformationAreHidden() throws {
    let fields = try HTTPFields([
      ("Location", "https://u:pw-9@app.example/cb?code=oauth-c0de&state=1"),
      ("X-Session-Id", "s-1"), ("X-Request-ID", "r-1"),
    ])
    let redacted = Redaction.standard.apply(to: fields)
    #expect(redacted["Location"] == "https://<redacted>@app.example/cb?code=<redacted>&state=1")
    #expect(redacted["X-Session-Id"] == "<redacted>")
    #expect(redacted["X-Request-ID"] == "r-1")
  }

  @Test func jsonWebTokensAndBearerCredentialsAreHiddenWhateverTheirName() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLTEyMw"
    let text = "note=\(jwt) header was Bearer opaque-123 and Basic dXNlcjpwdw=="
    let redacted = Redaction.standard.apply(toText: text)
    #expect(redacted == "note=<redacted> header was Bearer <redacted> and Basic <redacted>")
    let prose = "Basic usage: send Bearer tokens over TLS"
    #expect(Redaction.standard.apply(toText: prose) == prose)
  }

  @Test func usersAddNamesSecretValuesAndPrefixesAndAllowANameBack() {
    let redaction = Redaction.standard
      .adding(names: ["pin"])
      .adding(secretValues: ["hunter2"], secretPrefixes: ["sk_live_"])
      .allowing(["token_type"])
    let body = Data(
      #"{"pin":"1234","token_type":"Bearer","access_token":"a","note":"sk_live_abc hunter2"}"#.utf8)
    #expect(
      String(decoding: redaction.apply(toBody: body), as: UTF8.self)
        == #"{"pin":"<redacted>","token_type":"Bearer","access_token":"<redacted>","note":"<redacted> <redacted>"}"#
    )
    #expect(redaction.hidesHeader("PIN"))
    #expect(!Redaction.standard.allowing(["X-CSRF-Token"]).hidesHeader("x-csrf-token"))
  }

  @Test func errorTextsLoseURLCredentialsAndSecretPairs() {
    let text =
      "GET https://u:p4ss-1@x.test/a?token=t0k-2&page=1 failed (password=pw-3, see \"access_token\": \"at-4\")"
    let redacted = Redaction.standard.apply(toText: text)
    for secret in ["p4ss-1", "t0k-2", "pw-3"] { #expect(!redacted.contains(secret)) }
    #expect(redacted.contains("page=1"))
  }

  @Test func previewsStayBoundedAndValidUTF8AfterRedaction() {
    let body = Data(
      (#"{"password":"pw","text":""# + String(repeating: "é", count: 400) + #""}"#).utf8)
    let preview = Redaction.standard.preview(of: body, limit: 40)
    #expect(!preview.contains("\u{FFFD}"))
    #expect(preview.hasPrefix(#"{"password":"<redacted>","text":"é"#))
    #expect(preview.utf8.count < 80)
    #expect(preview.contains("more bytes"))
  }
}
