#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HTTPRequest {
  /// A `curl` command line that sends this request, for debugging; secrets are hidden by default.
  ///
  /// Every argument is quoted for a POSIX shell. An in-memory body is passed with
  /// `--data-binary`, a body that is not plain text is piped in through `printf`, a file body is
  /// read with `--data-binary @path`, and a streamed body cannot be shown (a trailing comment says
  /// so).
  ///
  /// ```swift
  /// print(request.curlCommand())
  /// // curl -X POST 'https://api.example.com/items?token=<redacted>'
  /// //   -H 'Authorization: <redacted>' -H 'Content-Type: application/json'
  /// //   --data-binary '{"a":1}'
  /// ```
  /// (one line in the real output).
  ///
  /// - Parameter redaction: the header fields, query parameters, form, multipart and JSON
  ///   fields and values to hide; pass ``Redaction/none`` for a command that can be run as is.
  /// - Returns: the command, on one line.
  public func curlCommand(redacting redaction: Redaction = .standard) -> String {
    var arguments = ["curl"]
    var stdinPrefix: String?
    var trailer: String?
    switch (method, body) {
    case (.get, nil): break
    case (.head, nil): arguments.append("--head")
    default: arguments += ["-X", ShellQuoting.quote(method.rawValue)]
    }
    arguments.append(ShellQuoting.quote(redaction.apply(to: url)))
    for field in redaction.apply(to: headerFields) {
      arguments += ["-H", ShellQuoting.quote("\(field.name): \(field.value)")]
    }
    if let timeout {
      arguments += ["--max-time", ShellQuoting.seconds(timeout)]
    }
    if let body {
      // curl would add `Content-Type: application/x-www-form-urlencoded` to a body without one.
      if !headerFields.contains("Content-Type") { arguments += ["-H", "'Content-Type:'"] }
      if var data = body.data {
        data = redaction.apply(toBody: data, contentType: headerFields["Content-Type"])
        if let text = ShellQuoting.plainText(data) {
          arguments += ["--data-binary", ShellQuoting.quote(text)]
        } else {
          stdinPrefix = "printf '\(ShellQuoting.printfFormat(data))' |"
          arguments += ["--data-binary", "@-"]
        }
      } else if let fileURL = body.fileURL {
        arguments += ["--data-binary", ShellQuoting.quote("@" + fileURL.path)]
      } else {
        let size = body.length.map { " of \($0) bytes" } ?? ""
        arguments += ["--data-binary", "@-"]
        trailer = "# streamed body\(size) not shown: pipe it in"
      }
    }
    return ([stdinPrefix] + arguments.map(Optional.some) + [trailer])
      .compactMap { $0 }
      .joined(separator: " ")
  }
}

/// Quoting for POSIX shells, shared by the `curl` rendering.
enum ShellQuoting {
  /// `text` as one shell word: unchanged when it holds only safe characters, otherwise in single
  /// quotes with each `'` written as `'\''`.
  static func quote(_ text: String) -> String {
    if !text.isEmpty, text.utf8.allSatisfy(isSafe) { return text }
    return "'" + text.replacing("'", with: #"'\''"#) + "'"
  }

  /// The body as text when it can travel as a command-line argument: valid UTF-8 without NUL or
  /// other control characters except tab and newlines, and not starting with `@` (which curl
  /// would read as a file name).
  static func plainText(_ data: Data) -> String? {
    guard let text = String(validating: data, as: UTF8.self), !text.hasPrefix("@") else {
      return nil
    }
    let isPlain = text.unicodeScalars.allSatisfy { scalar in
      scalar.value >= 0x20 && scalar.value != 0x7F || scalar == "\n" || scalar == "\r"
        || scalar == "\t"
    }
    return isPlain ? text : nil
  }

  /// A `printf` format (inside single quotes) that prints exactly `data`: printable ASCII as
  /// is, `%` and `\` escaped, every other byte as a three-digit octal escape.
  static func printfFormat(_ data: Data) -> String {
    var format = ""
    for byte in data {
      switch byte {
      case UInt8(ascii: "%"): format += "%%"
      case UInt8(ascii: "\\"): format += #"\\"#
      case UInt8(ascii: "'"): format += #"\047"#
      case 0x20..<0x7F: format.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let octal = String(byte, radix: 8)
        format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
      }
    }
    return format
  }

  /// A duration as decimal seconds, such as `30` or `0.5`.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return "\(seconds)" }
    return "\(Double(seconds) + Double(attoseconds) / 1e18)"
  }

  private static func isSafe(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"),
      UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "%"), UInt8(ascii: "+"),
      UInt8(ascii: ","):
      true
    default:
      false
    }
  }
}
