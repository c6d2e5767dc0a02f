import EndpointCore
import Foundation

/// An error S3 reported: its code (`NoSuchKey`, `SignatureDoesNotMatch`, …), message and request
/// ID, read from the XML `<Error>` document of a rejected response.
///
/// ```swift
/// do {
///   try await client.s3(S3.getObject(bucket, key: "missing"))
/// } catch let error as S3Error where error.code == "NoSuchKey" { … }
/// ```
struct S3Error: Error, Sendable, CustomStringConvertible {
  /// S3's error code.
  var code: String
  /// The human-readable message.
  var message: String
  /// The HTTP status.
  var status: Int
  /// S3's request ID, for a support case.
  var requestID: String?

  /// The error of an `<Error>` document.
  init(_ root: XMLNode, status: Int) {
    code = root.text("Code") ?? "Unknown"
    message = root.text("Message") ?? ""
    self.status = status
    requestID = root.text("RequestId")
  }

  /// The S3 error a rejected response carries, or `nil` when its body is not S3's `<Error>`
  /// document (a proxy's HTML page, a `HEAD` answer without a body).
  init?(_ response: UnexpectedResponse) {
    guard let root = try? XMLNode.parse(response.body, as: "S3Error"), root.name == "Error"
    else { return nil }
    self.init(root, status: response.status)
  }

  var description: String {
    "S3 \(status) \(code): \(message)" + (requestID.map { " (request \($0))" } ?? "")
  }
}

extension HTTPClient {
  /// `call(_:)`, with S3's error documents thrown as `S3Error`; other failures are unchanged.
  @discardableResult
  func s3<Resource>(_ endpoint: Endpoint<Resource>) async throws -> Resource {
    do {
      return try await call(endpoint)
    } catch let error as UnexpectedResponse {
      throw S3Error(error) ?? error
    }
  }
}
