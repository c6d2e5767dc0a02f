import EndpointCore
import Testing

@Suite struct RedactionTests {
  @Test func queryNamesMatchDecodedAndIgnoringCase() {
    let url = testURL("https://api.example.com/p?Access%5Ftoken=1&API+KEY=2&api_key=3&keep=4#frag")
    let redaction = Redaction.standard.adding(queryParameterNames: ["api key"])
    #expect(
      redaction.apply(to: url)
        == "https://api.example.com/p?Access%5Ftoken=<redacted>&API+KEY=<redacted>&api_key=<redacted>&keep=4#frag"
    )
  }

  @Test func parametersWithoutValuesAndEscapedValuesAreKept() {
    let url = testURL("https://api.example.com/p?token&x=%25zz&token=")
    #expect(
      Redaction.standard.apply(to: url)
        == "https://api.example.com/p?token&x=%25zz&token=<redacted>")
  }

  @Test func standardAlsoHidesNamesThatLookSecretAsErrorsDo() {
    #expect(Redaction.standard.hidesHeader("X-Service-Token"))
    #expect(Redaction.standard.hidesQueryParameter("refresh_token"))
    #expect(!Redaction.standard.hidesHeader("X-Request-ID"))
    let exact = Redaction(headerNames: ["x-shop-key"])
    #expect(exact.hidesHeader("X-Shop-Key"))
    #expect(!exact.hidesHeader("X-Service-Token"))
  }

  @Test func userInformationInTheURLIsHidden() {
    let url = testURL("https://user:pa%40ss@api.example.com:8443/p")
    #expect(Redaction.standard.apply(to: url) == "https://<redacted>@api.example.com:8443/p")
    #expect(Redaction.none.apply(to: url) == "https://user:pa%40ss@api.example.com:8443/p")
  }

  @Test func headerNamesIgnoreCase() throws {
    let fields = try HTTPFields([("authorization", "x"), ("X-API-KEY", "y"), ("Accept", "z")])
    let redacted = Redaction.standard.apply(to: fields)
    #expect(redacted.map(\.value) == ["<redacted>", "<redacted>", "z"])
    #expect(redacted.map(\.name) == ["authorization", "X-API-KEY", "Accept"])
    #expect(Redaction.none.apply(to: fields) == fields)
  }

  @Test func customRedactionHidesOnlyWhatItNames() {
    let redaction = Redaction(headerNames: ["X-Secret"], queryParameterNames: ["Code"])
    #expect(redaction.hidesHeader("x-secret"))
    #expect(!redaction.hidesHeader("Authorization"))
    #expect(redaction.hidesQueryParameter("CODE"))
  }
}
