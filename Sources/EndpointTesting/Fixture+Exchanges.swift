import Foundation

extension Fixture {
  /// The interactions the fixture holds, in the order they happened, as exchanges: the request
  /// and its body, and the response and its body and trailer fields, or, for a request whose
  /// client threw, an ``error`` of kind ``TestDoubleFailure/Kind/recordedFailure`` holding the
  /// error's recorded description.
  ///
  /// Values are as stored, so redacted ones read `<redacted>`; durations are not recorded and
  /// are zero.
  var exchanges: [RecordedExchange] {
    interactions.map { interaction in
      let request = interaction.request
      let response = interaction.response
      let sent = HTTPRequest(
        method: request.method, url: request.url, headerFields: request.headerFields,
        body: request.body.isEmpty ? nil : HTTPBody(request.body))
      return RecordedExchange(
        request: sent,
        requestBody: request.body,
        response: response.map {
          HTTPResponse(status: $0.status, headerFields: $0.headerFields, url: request.url)
        },
        responseBody: response?.body ?? Data(),
        error: response != nil
          ? nil
          : TestDoubleFailure.recordedFailure(
            interaction.error ?? "an error", method: request.method, url: request.url),
        duration: .zero,
        totalDuration: .zero,
        isComplete: true,
        responseTrailerFields: response?.trailerFields
      )
    }
  }
}
