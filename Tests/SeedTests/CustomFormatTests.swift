// The parsers and payloads of the custom-formats article (Docs/Endpoint.docc/CustomFormats.md),
// tested synchronously on canned bytes as TinyNetworking's README suggests. `Item` is
// `CatalogItem` here, beside the playground's `Item`.

import EndpointCore
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

struct CatalogItem: Sendable, Equatable {
  var id: Int
  var title: String
}

struct InvalidXML: Error, CustomStringConvertible {
  var description: String
}

final class ItemsReader: NSObject, XMLParserDelegate {
  var items: [CatalogItem] = []
  /// Elements open, and whether there was one: FoundationXML on Linux accepts a document cut
  /// off inside an element, or with no element at all.
  var depth = 0
  var sawElement = false
  private var id: Int?
  private var text = ""

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    depth += 1
    sawElement = true
    if name == "item" {
      id = attributes["id"].flatMap { Int($0) }
      text = ""
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    text += string
  }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    depth -= 1
    if name == "item", let id { items.append(CatalogItem(id: id, title: text)) }
  }
}

extension ResponseParser where Value == [CatalogItem] {
  static var itemsXML: ResponseParser {
    ResponseParser(accept: "application/xml") { _, body in
      let parser = XMLParser(data: body)
      let reader = ItemsReader()
      parser.delegate = reader
      guard parser.parse() else {
        throw InvalidXML(description: parser.parserError.map { "\($0)" } ?? "not XML")
      }
      guard reader.sawElement, reader.depth == 0 else {
        throw InvalidXML(description: "the document is empty or cut off")
      }
      return reader.items
    }
  }
}

extension RequestPayload {
  static func xml(_ items: [CatalogItem]) -> RequestPayload {
    func escaped(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    let elements = items.map { "<item id=\"\($0.id)\">\(escaped($0.title))</item>" }
    return .text("<items>\(elements.joined())</items>", contentType: "application/xml")
  }
}

enum ImageKind: Sendable {
  case png, jpeg, gif

  init?(signatureOf data: Data) {
    if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if data.starts(with: [0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if data.starts(with: Array("GIF8".utf8)) {
      self = .gif
    } else {
      return nil
    }
  }
}

struct NotAnImage: Error {}

extension ResponseParser where Value == Data {
  static var imageBytes: ResponseParser {
    ResponseParser(accept: "image/png, image/jpeg, image/gif") { _, body in
      guard ImageKind(signatureOf: body) != nil else { throw NotAnImage() }
      return body
    }
  }
}

extension RequestPayload {
  static func image(_ data: Data) throws -> RequestPayload {
    switch ImageKind(signatureOf: data) {
    case .png: .data(data, contentType: "image/png")
    case .jpeg: .data(data, contentType: "image/jpeg")
    case .gif: .data(data, contentType: "image/gif")
    case nil: throw NotAnImage()
    }
  }
}

struct Reading: Sendable, Equatable {
  var sensor: UInt16
  var value: Int32
}

struct TruncatedRecord: Error, CustomStringConvertible {
  var length: Int
  var description: String { "\(length) bytes is not a whole number of 6-byte readings" }
}

extension ResponseParser where Value == [Reading] {
  static var readings: ResponseParser {
    ResponseParser(accept: "application/octet-stream") { _, body in
      let bytes = [UInt8](body)
      guard bytes.count % 6 == 0 else { throw TruncatedRecord(length: bytes.count) }
      return stride(from: 0, to: bytes.count, by: 6).map { start in
        let sensor = UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1])
        let value = bytes[(start + 2)..<(start + 6)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Reading(sensor: sensor, value: Int32(bitPattern: value))
      }
    }
  }
}

extension RequestPayload {
  static func readings(_ readings: [Reading]) -> RequestPayload {
    var bytes: [UInt8] = []
    for reading in readings {
      bytes += [UInt8(reading.sensor >> 8), UInt8(reading.sensor & 0xFF)]
      let value = UInt32(bitPattern: reading.value)
      bytes += [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) }
    }
    return .data(Data(bytes), contentType: "application/octet-stream")
  }
}

@Suite struct CustomFormatTests {
  let api = URL(string: "https://api.example.com/v1")!

  @Test func itemsParseFromXMLAndRoundTrip() async throws {
    let items = Endpoint(.get, url: api.appending(path: "items.xml"), parser: .itemsXML)
    let xml = Data(
      #"<items><item id="1">Milk &amp; eggs</item><item id="2">Tea</item></items>"#.utf8)
    #expect(
      try items.parse(xml, nil).get() == [
        CatalogItem(id: 1, title: "Milk & eggs"), CatalogItem(id: 2, title: "Tea"),
      ])
    #expect(throws: InvalidXML.self) { try items.parse(Data("<items>".utf8), nil).get() }
    #expect(throws: InvalidXML.self) { try items.parse(Data("<a><b></a>".utf8), nil).get() }
    #expect(throws: InvalidXML.self) { try items.parse(Data("{}".utf8), nil).get() }
    #expect(try items.request().headerFields["Accept"] == "application/xml")

    let sent = [CatalogItem(id: 3, title: "<b> & \"c\"")]
    let payload = RequestPayload.xml(sent)
    let bytes = try await #require(payload.body).collect()
    #expect(try items.parse(bytes, nil).get() == sent)
  }

  @Test func imagesAreCheckedByTheirBytes() throws {
    let avatar = Endpoint(.get, url: api.appending(path: "avatar"), parser: .imageBytes)
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2])
    #expect(try avatar.parse(png, nil).get() == png)
    #expect(throws: NotAnImage.self) { try avatar.parse(Data("<html>".utf8), nil).get() }
    #expect(throws: NotAnImage.self) { try avatar.parse(nil, nil).get() }
    #expect(try RequestPayload.image(Data([0xFF, 0xD8, 0xFF, 0])).contentType == "image/jpeg")
    #expect(throws: NotAnImage.self) { try RequestPayload.image(Data("GIF".utf8)) }
  }

  @Test func binaryReadingsRoundTripAndAShortRecordFails() async throws {
    let upload = Endpoint(
      .post, url: api.appending(path: "readings"), payload: .readings([]), parser: .readings)
    let readings = [Reading(sensor: 7, value: -1), Reading(sensor: 0x0102, value: 0x0304_0506)]
    let bytes = try await #require(RequestPayload.readings(readings).body).collect()
    #expect(bytes.count == 12)
    #expect(Array(bytes[6...]) == [0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
    #expect(try upload.parse(bytes, nil).get() == readings)
    #expect(throws: TruncatedRecord.self) { try upload.parse(bytes.dropLast(), nil).get() }
  }
}
