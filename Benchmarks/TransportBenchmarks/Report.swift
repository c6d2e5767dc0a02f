import Foundation

/// Builds the Markdown table.
struct Report {
  private(set) var rows: [String]
  private(set) var allMet = true

  /// - Parameters: the headers of the measured client's column, the reference's and the ratio's.
  init(client: String = "SDK", reference: String = "raw URLSession", ratio: String = "SDK / raw") {
    rows = [
      "| Measurement | \(client) | \(reference) | \(ratio) | Target | Met |",
      "|---|---:|---:|---:|---|---|",
    ]
  }

  mutating func add(
    _ name: String,
    sdk: String,
    raw: String,
    ratio: String = "",
    target: String = "",
    met: Bool? = nil
  ) {
    let verdict: String
    switch met {
    case .some(true): verdict = "yes"
    case .some(false):
      verdict = "**no**"
      allMet = false
    case .none: verdict = ""
    }
    rows.append("| \(name) | \(sdk) | \(raw) | \(ratio) | \(target) | \(verdict) |")
  }

  mutating func addThroughput(_ comparisons: [Comparison]) {
    for comparison in comparisons {
      let sdk = median(comparison.sdk.map(\.requestsPerSecond))
      let raw = median(comparison.raw.map(\.requestsPerSecond))
      let ratios = comparison.ratios
      let ratio = median(ratios)
      let spread =
        " (\(format(ratios.min() ?? .nan, digits: 2))–\(format(ratios.max() ?? .nan, digits: 2)))"
      add(
        "req/s, \(comparison.name)",
        sdk: format(sdk, digits: 0),
        raw: format(raw, digits: 0),
        ratio: format(ratio, digits: 3) + "×" + spread,
        target: "≥ 1.00×",
        met: ratio >= 1.0 && comparison.failures == 0
      )
    }
    for comparison in comparisons {
      let sdk = median(comparison.sdk.map(\.cpuMicrosPerRequest))
      let raw = median(comparison.raw.map(\.cpuMicrosPerRequest))
      add(
        "client CPU µs/request, \(comparison.name)",
        sdk: format(sdk, digits: 0),
        raw: format(raw, digits: 0),
        ratio: format(sdk / raw, digits: 3) + "×",
        target: "(lower is better)"
      )
    }
    for comparison in comparisons {
      let sdk = median(comparison.sdk.map(\.switchesPerRequest))
      let raw = median(comparison.raw.map(\.switchesPerRequest))
      add(
        "context switches/request, \(comparison.name)",
        sdk: format(sdk, digits: 1),
        raw: format(raw, digits: 1),
        ratio: format(sdk / raw, digits: 3) + "×",
        target: "(lower is better)"
      )
    }
  }

  var markdown: String { rows.joined(separator: "\n") }

  var hasMeasurements: Bool { rows.count > 2 }
}

/// Megabytes (MiB) from a kB field of a child's result.
func megabytes(_ fields: [String: String]?, _ key: String) -> Double? {
  guard let text = fields?[key], let kilobytes = Double(text), kilobytes >= 0 else { return nil }
  return kilobytes / 1024
}

func formatMB(_ value: Double?) -> String {
  guard let value else { return "n/a" }
  return format(value, digits: 1) + " MiB"
}
