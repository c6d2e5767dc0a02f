#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One part of a `multipart/form-data` body: a text field or a file.
public struct MultipartPart: Sendable, Hashable {
  /// The form field's name.
  public var name: String
  /// The file name, for file parts.
  public var filename: String?
  /// The part's media type, for file parts.
  public var contentType: String?
  /// The part's bytes.
  public var data: Data

  /// Creates a part.
  public init(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
    self.name = name
    self.filename = filename
    self.contentType = contentType
    self.data = data
  }

  /// A text field, sent as UTF-8.
  public static func text(name: String, value: String) -> MultipartPart {
    MultipartPart(name: name, data: Data(value.utf8))
  }

  /// A file part.
  public static func file(
    name: String,
    filename: String,
    contentType: String = "application/octet-stream",
    data: Data
  ) -> MultipartPart {
    MultipartPart(name: name, filename: filename, contentType: contentType, data: data)
  }

  func write(to body: inout Data) {
    var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(name))\""
    if let filename {
      disposition += "; filename=\"\(Self.quoted(filename))\""
    }
    body.append(Data((disposition + "\r\n").utf8))
    if let contentType {
      // A media type cannot hold line breaks or NUL; dropping them keeps the header one line.
      let safeType = String(
        contentType.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }
      )
      body.append(Data("Content-Type: \(safeType)\r\n".utf8))
    }
    body.append(Data("\r\n".utf8))
    body.append(data)
  }

  /// Escapes a name or file name the way browsers do, so it cannot end the quoted string
  /// or the header line.
  private static func quoted(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\"": result += "%22"
      case "\r": result += "%0D"
      case "\n": result += "%0A"
      case "\r\n": result += "%0D%0A"
      default: result.append(character)
      }
    }
    return result
  }
}
