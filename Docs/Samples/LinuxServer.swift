// The names the samples of LinuxServer.md assume.
import EndpointCore
import Foundation

/// The context of the request a service is handling, as a server framework would keep it.
enum RequestContext {
  @TaskLocal static var trace: TraceContext?
}

/// A place spans and metrics go to.
enum Telemetry {
  static func export(_ span: SpanRecord) {}
  static func record(_ metrics: TransferMetrics) {}
}

struct Invoice: Codable, Sendable {
  var id: String
  var total: Int
}

let paymentsBase = URL(string: "https://payments.internal.example.com/v2/")!
