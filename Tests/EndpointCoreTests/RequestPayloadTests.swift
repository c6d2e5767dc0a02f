import EndpointTestSupport
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct RequestPayloadTests {
  @Test func emptyHasNoBodyAndNoContentType() throws {
    #expect(RequestPayload.empty.body == nil)
    #expect(RequestPayload.empty.contentType == nil)
    let request = try Endpoint(.get, url: try makeURL("https://a.example"), parser: .void())
      .request()
    #expect(request.body == nil)
    #expect(!request.headerFields.contains("Content-Type"))
  }

  @Test func dataIsSentAsGivenWithItsMediaType() {
    let payload = RequestPayload.data(Data([0, 1, 2, 255]))
    #expect(payload.contentType == "application/octet-stream")
    #expect(payload.body?.data == Data([0, 1, 2, 255]))
    #expect(payload.body?.length == 4)
    #expect(RequestPayload.data(Data(), contentType: "image/png").contentType == "image/png")
  }

  @Test func textIsUTF8() {
    let payload = RequestPayload.text("héllo ✓")
    #expect(payload.contentType == "text/plain; charset=utf-8")
    #expect(payload.body?.data == Data("héllo ✓".utf8))
    #expect(RequestPayload.text("x", contentType: "text/csv").contentType == "text/csv")
  }

  @Test func fileIsStreamedFromDisk() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.appending(path: "upload.bin")
      try bytes("file contents").write(to: file)
      let payload = try RequestPayload.file(file, contentType: "application/x-test")
      #expect(payload.contentType == "application/x-test")
      let body = try #require(payload.body)
      #expect(body.data == nil)
      #expect(body.fileURL == file)
      #expect(body.length == 13)
      #expect(body.isReplayable)
      #expect(try await text(body.collect(upTo: 100)) == "file contents")
    }
  }

  @Test func aMissingFileIsRefusedAsABodyNamingIt() throws {
    let file = URL(filePath: "/nonexistent/endpoint-\(UInt32.random(in: 0...UInt32.max)).bin")
    let error = try #require(throws: InvalidRequest.self) { try RequestPayload.file(file) }
    #expect(error.kind == .body)
    #expect(error.fileURL == file)
    #expect(error.description.contains(file.path))
    #expect(!error.reason.isEmpty)
  }

  @Test func aDirectoryIsRefusedAsABody() throws {
    try withTemporaryDirectory { directory in
      let error = try #require(throws: InvalidRequest.self) { try RequestPayload.file(directory) }
      #expect(error.kind == .body)
      #expect(error.reason == "not a regular file")
    }
  }

  @Test func aURLThatIsNotAFileIsRefusedAsABody() throws {
    let url = try makeURL("https://a.example/file.txt")
    let error = try #require(throws: InvalidRequest.self) { try HTTPBody(contentsOf: url) }
    #expect(error.kind == .body)
    #expect(error.reason == "not a file URL")
  }

  @Test func formFromPairsKeepsOrderAndEncodesReservedCharacters() throws {
    let payload = RequestPayload.formURLEncoded([
      ("q", "swift http"), ("a&b", "c=d"), ("plus", "1+1"), ("name", "Zoë ✓"), ("q", "again"),
      ("path", "/x?y#z"), ("empty", ""),
    ])
    #expect(payload.contentType == "application/x-www-form-urlencoded")
    let body = try #require(payload.body?.data)
    #expect(
      text(body)
        == "q=swift%20http&a%26b=c%3Dd&plus=1%2B1&name=Zo%C3%AB%20%E2%9C%93&q=again"
        + "&path=%2Fx%3Fy%23z&empty=")
  }

  @Test func formFromDictionaryIsSortedByName() throws {
    let payload = RequestPayload.formURLEncoded(["b": "2", "a": "1", "c": "3 3"])
    #expect(payload.body?.data == bytes("a=1&b=2&c=3%203"))
  }

  @Test func emptyFormIsAnEmptyBody() {
    #expect(RequestPayload.formURLEncoded([(String, String)]()).body?.data == Data())
  }
}

@Suite struct MultipartTests {
  /// A fixed boundary so the exact bytes can be checked.
  private func payload(_ parts: [MultipartPart], boundaries: [String] = ["BOUNDARY"])
    -> RequestPayload
  {
    var candidates = boundaries[...]
    return RequestPayload.multipart(parts, boundaryCandidates: { candidates.popFirst() ?? "LAST" })
  }

  @Test func textAndFilePartsAreLaidOutAsRFC7578Says() throws {
    let payload = payload([
      .text(name: "title", value: "Holiday ✓"),
      .file(name: "photo", filename: "beach.jpg", contentType: "image/jpeg", data: Data([1, 2])),
    ])
    #expect(payload.contentType == "multipart/form-data; boundary=BOUNDARY")
    let body = try #require(payload.body?.data)
    var expected = bytes(
      "--BOUNDARY\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday ✓\r\n"
        + "--BOUNDARY\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"beach.jpg\""
        + "\r\nContent-Type: image/jpeg\r\n\r\n")
    expected.append(contentsOf: [1, 2])
    expected.append(bytes("\r\n--BOUNDARY--\r\n"))
    #expect(body == expected)
  }

  @Test func filePartDefaultsToOctetStream() {
    let part = MultipartPart.file(name: "f", filename: "a.bin", data: Data())
    #expect(part.contentType == "application/octet-stream")
    #expect(part.filename == "a.bin")
    #expect(MultipartPart.text(name: "t", value: "v").contentType == nil)
  }

  @Test func quotesAndLineBreaksInNamesAreEscaped() throws {
    let payload = payload([
      MultipartPart(
        name: "a\"b\r\nX-Evil: 1", filename: "c\"d\ne.txt", contentType: "text/plain\r\nX-Evil: 2",
        data: bytes("x"))
    ])
    let body = text(try #require(payload.body?.data))
    #expect(
      body.contains(
        "Content-Disposition: form-data; name=\"a%22b%0D%0AX-Evil: 1\"; "
          + "filename=\"c%22d%0Ae.txt\"\r\n"
      ))
    #expect(body.contains("Content-Type: text/plainX-Evil: 2\r\n"))
    #expect(!body.contains("\r\nX-Evil"), "no injected header line")
  }

  @Test func aBoundaryFoundInAPartIsNotUsed() throws {
    let payload = payload(
      [.text(name: "note", value: "contains BOUNDARY-1 in the text")],
      boundaries: ["BOUNDARY-1", "BOUNDARY-2"])
    #expect(payload.contentType == "multipart/form-data; boundary=BOUNDARY-2")
    let body = text(try #require(payload.body?.data))
    #expect(body.hasPrefix("--BOUNDARY-2\r\n"))
    #expect(body.hasSuffix("--BOUNDARY-2--\r\n"))
  }

  @Test func aBoundaryFoundInAPartHeaderOrFileDataIsNotUsed() throws {
    let payload = payload(
      [
        .text(name: "field-AAA", value: "v"),
        .file(name: "f", filename: "x", data: bytes("..BBB..")),
      ],
      boundaries: ["AAA", "BBB", "CCC"])
    #expect(payload.contentType == "multipart/form-data; boundary=CCC")
  }

  @Test func generatedBoundaryOccursInNoPart() throws {
    let payload = RequestPayload.multipart([.text(name: "a", value: "b")])
    let contentType = try #require(payload.contentType)
    let prefix = "multipart/form-data; boundary="
    #expect(contentType.hasPrefix(prefix))
    let boundary = String(contentType.dropFirst(prefix.count))
    #expect(boundary.count >= 20 && boundary.count <= 70, "RFC 2046 allows 1 to 70 characters")
    let body = text(try #require(payload.body?.data))
    #expect(body.ranges(of: boundary).count == 2, "opening and closing delimiter only")
    #expect(RequestPayload.multipart([]).contentType != contentType, "a fresh boundary each time")
  }

  @Test func noPartsGiveOnlyTheClosingDelimiter() throws {
    #expect(payload([]).body?.data == bytes("--BOUNDARY--\r\n"))
  }
}

@Suite struct ChosenBoundaryTests {
  @Test func aChosenBoundaryDelimitsTheBody() throws {
    let payload = try RequestPayload.multipart(
      [.text(name: "title", value: "Holiday")], boundary: "holiday-upload-1")
    #expect(payload.contentType == "multipart/form-data; boundary=holiday-upload-1")
    let body = try #require(payload.body?.data)
    #expect(
      body
        == bytes(
          "--holiday-upload-1\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n"
            + "--holiday-upload-1--\r\n"))
  }

  @Test func aBoundaryOfTheWrongFormIsRefused() {
    let parts: [MultipartPart] = [.text(name: "a", value: "b")]
    let length = "a boundary has 1 to 70 characters"
    let character = "a boundary holds only letters, digits and '+_-."
    for (boundary, reason) in [
      ("", length),
      (String(repeating: "a", count: 71), length),
      ("with space", character),
      ("semi;colon", character),
      ("line\r\nbreak", character),
    ] {
      let error = expectInvalidRequest(.multipartBoundary) {
        try RequestPayload.multipart(parts, boundary: boundary)
      }
      #expect(error?.input == boundary)
      #expect(error?.reason == reason)
    }
  }

  @Test func aBoundaryFoundInAPartIsRefused() {
    let parts: [MultipartPart] = [
      .text(name: "a", value: "fine"), .text(name: "b", value: "says --XYZ-- inside"),
    ]
    let error = expectInvalidRequest(.multipartBoundary) {
      try RequestPayload.multipart(parts, boundary: "XYZ")
    }
    #expect(
      error?.description
        == "Invalid multipart boundary \"XYZ\": it occurs in part 1, which it would end early")
  }
}
