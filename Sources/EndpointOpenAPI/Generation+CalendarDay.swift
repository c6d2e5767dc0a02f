/// Calendar days (`format: date`) as one small generated type, `CalendarDay`, written once per
/// output in a support file when a declaration or an operation uses it.
extension Generation {
  /// The support file's path in the output.
  static let calendarDaySupportPath = "Support/CalendarDay.swift"

  /// The type's name, which no model may take.
  static let calendarDayName = "CalendarDay"

  /// The support file: a day of the Gregorian calendar, coded as `yyyy-MM-dd`, validated.
  func emitCalendarDaySupport() -> String {
    let access = self.access
    let name = Self.calendarDayName
    let lines = [
      "/// A calendar day (`format: date`), such as `2024-05-01`: a year, a month and a day of the",
      "/// Gregorian calendar, in no time zone.",
      "///",
      "/// It is read and written as `yyyy-MM-dd` text whatever the coder's date strategy; other",
      "/// text, or a day its month does not have (`2024-02-30`), is a decoding error.",
      "\(access)struct \(name): Codable, Sendable, Hashable, Comparable, CustomStringConvertible {",
      "  /// The year, from 0 to 9999.",
      "  \(access)let year: Int",
      "  /// The month, from 1 (January) to 12.",
      "  \(access)let month: Int",
      "  /// The day of the month, from 1.",
      "  \(access)let day: Int",
      "",
      "  /// The day, or `nil` when its month does not have it or the year is not of four digits.",
      "  \(access)init?(year: Int, month: Int, day: Int) {",
      "    guard (0...9999).contains(year), (1...12).contains(month), day >= 1 else { return nil }",
      "    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)",
      "    let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]",
      "    guard day <= lengths[month - 1] else { return nil }",
      "    (self.year, self.month, self.day) = (year, month, day)",
      "  }",
      "",
      "  /// The day that `text` writes as `yyyy-MM-dd`, or `nil` for other text or a day that",
      "  /// does not exist.",
      "  \(access)init?(_ text: String) {",
      "    let zero = UInt8(ascii: \"0\")",
      "    let parts = text.utf8.split(separator: UInt8(ascii: \"-\"), omittingEmptySubsequences: false)",
      "    guard parts.map(\\.count) == [4, 2, 2],",
      "      parts.allSatisfy({ $0.allSatisfy { (zero...zero + 9).contains($0) } })",
      "    else { return nil }",
      "    let numbers = parts.map { $0.reduce(0) { $0 * 10 + Int($1 - zero) } }",
      "    self.init(year: numbers[0], month: numbers[1], day: numbers[2])",
      "  }",
      "",
      "  /// The day as `yyyy-MM-dd`.",
      "  \(access)var description: String {",
      "    func padded(_ number: Int, _ width: Int) -> String {",
      "      let digits = String(number)",
      "      return String(repeating: \"0\", count: width - digits.count) + digits",
      "    }",
      "    return \"\\(padded(year, 4))-\\(padded(month, 2))-\\(padded(day, 2))\"",
      "  }",
      "",
      "  /// Decodes `yyyy-MM-dd` text.",
      "  \(access)init(from decoder: any Decoder) throws {",
      "    let container = try decoder.singleValueContainer()",
      "    let text = try container.decode(String.self)",
      "    guard let day = \(name)(text) else {",
      "      throw DecodingError.dataCorruptedError(",
      "        in: container, debugDescription: \"Not a calendar day (yyyy-MM-dd): \\(text)\")",
      "    }",
      "    self = day",
      "  }",
      "",
      "  /// Encodes `yyyy-MM-dd` text.",
      "  \(access)func encode(to encoder: any Encoder) throws {",
      "    var container = encoder.singleValueContainer()",
      "    try container.encode(description)",
      "  }",
      "",
      "  /// Whether `lhs` is a day before `rhs`.",
      "  \(access)static func < (lhs: \(name), rhs: \(name)) -> Bool {",
      "    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)",
      "  }",
      "}",
    ]
    return header + "\n" + lines.joined(separator: "\n") + "\n"
  }
}

extension TypeRef {
  /// Whether a calendar day is in the type: it is one, or an array or dictionary of them.
  var containsCalendarDay: Bool { contains(.calendarDay) }
}

extension ModelDecl {
  /// Whether this type or one nested in it has a calendar-day property.
  var usesCalendarDay: Bool { uses(.calendarDay) }
}
