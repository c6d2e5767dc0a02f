import Foundation

extension ReplayClient {
  /// The exchanges this client would write now, in order: kept recordings and new ones,
  /// redacted, as ``exchanges(inFixture:)`` reads them.
  public var exchanges: [RecordedExchange] { fixture.exchanges }

  /// What a fixture file holds, in the order it happened: each request and its body, and the
  /// response and its body and trailer fields, or, for a request whose client threw, an
  /// ``RecordedExchange/error`` of kind ``TestDoubleFailure/Kind/recordedFailure`` holding the
  /// error's recorded description.
  ///
  /// Values are as stored, so redacted ones read `<redacted>`; durations are not recorded and
  /// are zero.
  ///
  /// ```swift
  /// let checkout = ReplayClient.fixtureURL(named: "checkout")
  /// let recorded = try ReplayClient.exchanges(inFixture: checkout)
  /// #expect(recorded.map(\.request.url.path) == ["/cart", "/checkout"])
  /// ```
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/invalidFixture`` naming
  ///   the file and what is wrong with it.
  public static func exchanges(inFixture file: URL) throws(TestDoubleFailure)
    -> [RecordedExchange]
  {
    try Fixture(contentsOf: file).exchanges
  }

  /// A fixture file as a HAR 1.2 document, to open in a HAR viewer (browser developer tools,
  /// Charles, Proxyman).
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/invalidFixture`` naming
  ///   the file and what is wrong with it.
  public static func har(ofFixture file: URL) throws(TestDoubleFailure) -> Data {
    try Fixture(contentsOf: file).har()
  }

  /// The contents of a fixture file made from the entries of a HAR 1.2 document (as saved by
  /// browser developer tools, Charles or Proxyman), redacted as a ``ReplayClient`` redacts
  /// what it records.
  ///
  /// Base64 response content (`"encoding": "base64"`) is decoded; an entry whose response status
  /// is 0 (no response) replays as the error it recorded.
  ///
  /// ```swift
  /// let har = try Data(contentsOf: URL(fileURLWithPath: "checkout.har"))
  /// let checkout = ReplayClient.fixtureURL(named: "checkout")
  /// try ReplayClient.fixture(fromHAR: har).write(to: checkout)
  /// ```
  ///
  /// - Parameters:
  ///   - har: the HAR document.
  ///   - redaction: what is redacted: ``EndpointCore/Redaction/standard`` by default.
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/invalidFixture`` naming
  ///   the entry and what is wrong with it.
  public static func fixture(fromHAR har: Data, redaction: Redaction = .standard)
    throws(TestDoubleFailure) -> Data
  {
    try Fixture(har: har).redacted(by: redaction).encoded()
  }
}
