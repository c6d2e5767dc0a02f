import EndpointCore
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One error for a request that could not be built: each kind is caught by `kind`, and each
/// prints the sentence that names the input and the reason.
@Suite struct InvalidRequestTests {
  @Test func aURLThatIsNotHTTPIsOfKindURL() throws {
    let url = try #require(URL(string: "ftp://files.example.com/a"))
    let error = expectInvalidRequest(.url) {
      try HTTPRequest(method: .get, url: url).checkSendable()
    }
    #expect(error?.url == url)
    #expect(error?.method == .get)
    #expect(
      error?.description
        == #"Invalid URL "ftp://files.example.com/a": only http and https URLs are sent "#
        + #"(the scheme is "ftp")"#)
  }

  @Test func aURLErrorBuiltByHandNamesItsInputLikeTheSDKs() {
    let error = InvalidRequest(.url, reason: "a signed URL needs a host", input: "https:///x")
    #expect(error.kind == .url)
    #expect(error.description == #"Invalid URL "https:///x": a signed URL needs a host"#)
  }

  @Test func aMethodThatIsNotATokenIsOfKindMethod() throws {
    let url = try #require(URL(string: "https://api.example.com/a"))
    let error = expectInvalidRequest(.method) {
      try Endpoint(url: url, method: "BAD METHOD", parser: .data).request()
    }
    #expect(error?.method == "BAD METHOD")
    #expect(
      error?.description
        == #"Invalid HTTP method "BAD METHOD": a method must be a non-empty RFC 9110 token"#)
  }

  @Test func aHeaderFieldNameThatIsNotATokenIsOfKindHeaderField() {
    let error = expectInvalidRequest(.headerField) { try HTTPFields([("Bad Name", "1")]) }
    #expect(error?.fieldName == "Bad Name")
    #expect(
      error?.description
        == #"Invalid header field name "Bad Name": a name must be a non-empty RFC 9110 token "#
        + "(letters, digits and !#$%&'*+-.^_`|~)")
  }

  @Test func aHeaderFieldValueWithALineBreakIsOfKindHeaderFieldAndNeverShown() {
    let error = expectInvalidRequest(.headerField) {
      try HTTPFields([("Authorization", "Bearer canary\r\nX-Evil: 1")])
    }
    #expect(error?.fieldName == "Authorization")
    #expect(
      error?.description
        == #"Invalid value for header field "Authorization": it contains CR, which a field "#
        + "value must not contain")
    expectNoCanary(in: reflectedText(error as Any), "InvalidRequest (header field)")
  }

  @Test func aTimeoutThatIsNotPositiveIsOfKindTimeout() throws {
    let url = try #require(URL(string: "https://api.example.com/a"))
    let timeout = Duration.seconds(-1)
    let error = expectInvalidRequest(.timeout) {
      try Endpoint(url: url, parser: .data).timeout(timeout).request()
    }
    #expect(error?.timeout == timeout)
    #expect(
      error?.description
        == "Invalid timeout \(timeout): a timeout must be greater than zero; use nil for the "
        + "client's default")
  }

  @Test func anUnusableRequestOptionIsOfKindOption() throws {
    let url = try #require(URL(string: "https://api.example.com/a"))
    let error = expectInvalidRequest(.option) {
      try Endpoint(url: url, parser: .data).maximumResponseSize(.limited(-1)).request()
    }
    #expect(error?.setting == "maximumResponseSize")
    #expect(error?.value == "-1")
    #expect(
      error?.description
        == "Invalid request option maximumResponseSize = -1: a size cannot be negative; use "
        + ".unlimited for none, nil for the client's")
  }

  @Test func aBoundaryOfTheWrongFormIsOfKindMultipartBoundary() {
    let error = expectInvalidRequest(.multipartBoundary) {
      try RequestPayload.multipart([.text(name: "a", value: "b")], boundary: "my boundary")
    }
    #expect(error?.input == "my boundary")
    #expect(
      error?.description
        == #"Invalid multipart boundary "my boundary": a boundary holds only letters, digits "#
        + "and '+_-.")
  }

  @Test func aPinThatIsNotADigestIsOfKindPublicKeyPin() {
    let error = expectInvalidRequest(.publicKeyPin) { try PublicKeyPin("sha256//AAAA") }
    #expect(error?.input == "sha256//AAAA")
    #expect(
      error?.description
        == #"invalid public-key pin "sha256//AAAA": expected sha256// followed by the base64 "#
        + "text of a 32-byte SHA-256 digest")
  }

  @Test func aBodyFileThatCannotBeReadIsOfKindBody() {
    let file = URL(filePath: "/nonexistent/endpoint-invalid-request.bin")
    let error = expectInvalidRequest(.body) { try RequestPayload.file(file) }
    #expect(error?.fileURL == file)
    #expect(
      error?.description
        == "Cannot read body file /nonexistent/endpoint-invalid-request.bin: No such file or "
        + "directory")
  }

  @Test func aClientsRefusalsReadAsTheyDid() throws {
    let url = try #require(URL(string: "https://alice:canary-pw@api.example.com/a?token=canary"))
    let unsupported = InvalidRequest(
      .unsupported, reason: "the body has trailer fields", method: .post, url: url)
    #expect(unsupported.kind == .unsupported)
    #expect(unsupported.description.hasPrefix("POST https://"))
    #expect(unsupported.description.hasSuffix(" cannot be sent: the body has trailer fields"))
    expectNoCanary(in: unsupported.description, "InvalidRequest (unsupported)")
    expectNoCanary(in: reflectedText(unsupported), "InvalidRequest (unsupported) mirror")
  }

  @Test func kindsPrintTheirNames() {
    let kinds: [InvalidRequest.Kind] = [
      .url, .method, .headerField, .timeout, .option, .multipartBoundary, .publicKeyPin, .body,
      .configuration, .unsupported,
    ]
    #expect(Set(kinds).count == kinds.count)
    #expect(kinds.map(\.description).contains("headerField"))
  }
}
