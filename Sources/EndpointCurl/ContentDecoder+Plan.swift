internal import CCurl
import EndpointKernel

/// What the client offers in `Accept-Encoding`, and what it does with a response's
/// `Content-Encoding`.
extension ContentDecoder {
  /// The codings the client offers and decodes, in the order it offers them: those the loaded
  /// libcurl decodes (as the URLSession client offers them), whose library loaded here too.
  static let offered: [Coding] = {
    // libcurl's features are read once it is loaded.
    guard CurlLibrary.unavailable == nil else { return [] }
    let libcurl = WireFields.contentCodings(libcurlFeatures: ccurl_version_features())
      .compactMap(Coding.init(named:))
    guard Coding.gzip.isAvailable else { return [] }
    return libcurl.filter(\.isAvailable)
  }()

  /// The `Accept-Encoding` the client sends when the caller sets none, or `nil` when it
  /// decodes nothing (zlib did not load: libcurl decodes then).
  static let acceptEncoding: String? =
    offered.isEmpty ? nil : offered.map(\.rawValue).joined(separator: ", ")

  /// What to do with a response's body, by its `Content-Encoding`.
  enum Plan {
    /// No coding the client offered: the body goes to the caller as sent.
    case passThrough
    /// Every coding is one the client offered: decoded, the last listed first.
    case decode(ContentDecoder)
    /// The response cannot be decoded as the client promised; the reason.
    case refuse(String)
  }

  /// The plan for a response whose `Content-Encoding` fields are `values`.
  ///
  /// A body is decoded only when every coding it lists is one the client offered; a body with
  /// a coding the client did not offer (a server may send one anyway) reaches the caller as
  /// sent, its `Content-Encoding` field intact, for the caller to decode.
  static func plan(contentEncoding values: [String]) -> Plan {
    let names = values.flatMap { $0.split(separator: ",") }
      .map { WireFields.trimmed(String($0)).lowercased() }
      .filter { !$0.isEmpty && $0 != "identity" }
    guard !names.isEmpty else { return .passThrough }
    var codings: [Coding] = []
    for name in names {
      guard let coding = Coding(named: name), offered.contains(coding) else { return .passThrough }
      codings.append(coding)
    }
    guard codings.count <= maximumCodings else {
      return .refuse(
        "the response stacks \(codings.count) content codings "
          + "(\(names.joined(separator: ", "))); the client decodes at most \(maximumCodings)")
    }
    guard let decoder = ContentDecoder(codings: codings) else {
      return .refuse("the client could not start a decoder for \(names.joined(separator: ", "))")
    }
    return .decode(decoder)
  }
}
