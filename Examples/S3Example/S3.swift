import EndpointCore
import Foundation

/// The S3 calls the example makes, as plain endpoint values: path-style URLs relative to the
/// client's base URL (`BaseURLMiddleware`), signed by `SigV4Signer` on their way out.
enum S3 {
  /// One object of a listing.
  struct Object: Sendable, Equatable {
    var key: String
    var size: Int64
    var eTag: String
  }

  /// One page of `ListObjectsV2`: iterating it gives its objects, so `client.items(of:)` walks
  /// every object of every page.
  struct ListPage: Sendable, Sequence {
    var objects: [Object]
    var isTruncated: Bool
    /// The token of the next page; `nil` on the last.
    var nextContinuationToken: String?

    func makeIterator() -> IndexingIterator<[Object]> { objects.makeIterator() }
  }

  /// One uploaded part of a multipart upload.
  struct Part: Sendable {
    var number: Int
    var eTag: String
  }

  // MARK: - Buckets

  /// `CreateBucket` (in us-east-1, the region that takes no location document).
  static func createBucket(_ bucket: String) -> Endpoint<Void> {
    Endpoint(.put, path: "\(bucket)", parser: .void())
  }

  /// `DeleteBucket`: the bucket must be empty.
  static func deleteBucket(_ bucket: String) -> Endpoint<Void> {
    Endpoint(.delete, path: "\(bucket)", parser: .void(expecting: .codes(204)))
  }

  /// `ListObjectsV2`, one page of at most `maxKeys` objects; walk every page with
  /// `client.items(of: S3.listObjects(…), paginator: S3.listPages)`.
  static func listObjects(_ bucket: String, prefix: String? = nil, maxKeys: Int? = nil)
    -> Endpoint<ListPage>
  {
    var query = [URLQueryItem(name: "list-type", value: "2")]
    if let prefix { query.append(URLQueryItem(name: "prefix", value: prefix)) }
    if let maxKeys { query.append(URLQueryItem(name: "max-keys", value: String(maxKeys))) }
    return Endpoint(
      .get, path: "\(bucket)", query: query,
      parser: .xml("ListBucketResult", expecting: "ListBucketResult") { root, _ in
        ListPage(
          objects: try root.all("Contents").map { item in
            Object(
              key: try item.required("Key"),
              size: Int64(try item.required("Size")) ?? -1,
              eTag: item.text("ETag") ?? "")
          },
          isTruncated: root.text("IsTruncated") == "true",
          nextContinuationToken: root.text("NextContinuationToken"))
      })
  }

  /// The next page of a listing asks for the token the page before gave.
  static let listPages = Paginator<ListPage>.cursor(name: "continuation-token") { page in
    page.isTruncated ? page.nextContinuationToken : nil
  }

  // MARK: - Objects

  /// `PutObject`; the value is the object's `ETag`.
  ///
  /// - Parameter sha256: the payload's SHA-256 in hex, when the caller knows it: sent as
  ///   `x-amz-content-sha256`, so the signer does not read a file body an extra time.
  static func putObject(
    _ bucket: String, key: String, payload: RequestPayload, sha256: String? = nil
  ) -> Endpoint<String> {
    var headers: [String: String] = [:]
    if let sha256 { headers["x-amz-content-sha256"] = sha256 }
    return Endpoint(
      .put, path: "\(bucket)/\(raw: keyPath(key))", headers: headers, payload: payload,
      parser: eTag)
  }

  /// `GetObject`: the whole object in memory (use `client.download` for a large one).
  static func getObject(_ bucket: String, key: String) -> Endpoint<Data> {
    Endpoint(.get, path: "\(bucket)/\(raw: keyPath(key))", parser: .data)
  }

  /// A ranged `GetObject`: the bytes `range` (inclusive, as HTTP counts), answered with `206`.
  static func getObject(_ bucket: String, key: String, range: ClosedRange<Int64>)
    -> Endpoint<Data>
  {
    Endpoint(
      .get, path: "\(bucket)/\(raw: keyPath(key))",
      headers: ["Range": "bytes=\(range.lowerBound)-\(range.upperBound)"],
      parser: ResponseParser.data.accepting(.codes(206)))
  }

  /// `DeleteObject`.
  static func deleteObject(_ bucket: String, key: String) -> Endpoint<Void> {
    Endpoint(.delete, path: "\(bucket)/\(raw: keyPath(key))", parser: .void(expecting: .codes(204)))
  }

  // MARK: - Multipart uploads

  /// `CreateMultipartUpload`; the value is the upload ID.
  static func createMultipartUpload(_ bucket: String, key: String) -> Endpoint<String> {
    Endpoint(
      .post, path: "\(bucket)/\(raw: keyPath(key))",
      query: [URLQueryItem(name: "uploads", value: nil)],
      parser: .xml("InitiateMultipartUploadResult", expecting: "InitiateMultipartUploadResult") {
        root, _ in try root.required("UploadId")
      })
  }

  /// `UploadPart`: part `number` (from 1); every part but the last holds at least 5 MiB.
  ///
  /// - Parameter sha256: the part's SHA-256 in hex; required for a body read only once (a
  ///   stream), which the signer cannot hash without consuming it.
  static func uploadPart(
    _ bucket: String, key: String, uploadID: String, number: Int, body: HTTPBody,
    sha256: String? = nil
  ) -> Endpoint<Part> {
    Endpoint(
      .put, path: "\(bucket)/\(raw: keyPath(key))",
      query: [
        URLQueryItem(name: "partNumber", value: String(number)),
        URLQueryItem(name: "uploadId", value: uploadID),
      ],
      headers: sha256.map { ["x-amz-content-sha256": $0] } ?? [:],
      payload: RequestPayload(contentType: "application/octet-stream", body: body),
      parser: eTag.map { Part(number: number, eTag: $0) })
  }

  /// `CompleteMultipartUpload`; the value is the whole object's `ETag`.
  ///
  /// S3 may answer `200` and still fail (the error arrives in the body, after the status): the
  /// parser turns an `<Error>` document into `S3Error` whatever the status.
  static func completeMultipartUpload(
    _ bucket: String, key: String, uploadID: String, parts: [Part]
  ) -> Endpoint<String> {
    let list = parts.map {
      "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(xmlEscaped($0.eTag))</ETag></Part>"
    }
    let document = "<CompleteMultipartUpload>\(list.joined())</CompleteMultipartUpload>"
    return Endpoint(
      .post, path: "\(bucket)/\(raw: keyPath(key))",
      query: [URLQueryItem(name: "uploadId", value: uploadID)],
      payload: .text(document, contentType: "application/xml"),
      parser: ResponseParser(accept: "application/xml") { response, body in
        let root = try XMLNode.parse(body, as: "CompleteMultipartUploadResult")
        if root.name == "Error" { throw S3Error(root, status: response.status) }
        return try root.required("ETag")
      })
  }

  /// `AbortMultipartUpload`: frees the parts of an upload that will not complete.
  static func abortMultipartUpload(_ bucket: String, key: String, uploadID: String)
    -> Endpoint<Void>
  {
    Endpoint(
      .delete, path: "\(bucket)/\(raw: keyPath(key))",
      query: [URLQueryItem(name: "uploadId", value: uploadID)],
      parser: .void(expecting: .codes(204)))
  }

  // MARK: - Helpers

  /// An object key as a path: `/` separates segments (S3 keys read as paths), everything but
  /// `A-Z a-z 0-9 - _ . ~` in a segment is percent-encoded, as SigV4 signs it.
  static func keyPath(_ key: String) -> String {
    key.split(separator: "/", omittingEmptySubsequences: false)
      .map { SigV4Signer.uriEncode(String($0)) }
      .joined(separator: "/")
  }

  /// The response's `ETag` field, which S3 sends with every stored object or part.
  static let eTag = ResponseParser<String> { response, body in
    guard let tag = response.headerFields["ETag"] else {
      throw ParsingFailure(type: "ETag", reason: "the response has no ETag field", body: body)
    }
    return tag
  }

  private static func xmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
