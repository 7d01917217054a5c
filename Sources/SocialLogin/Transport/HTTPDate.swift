import Foundation

/// Parses HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms.
enum HTTPDate {
  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  /// Parses delta-seconds (RFC 9111 §1.2.2; RFC 9110's `Retry-After` delay-seconds is the
  /// same grammar): digits only, so no `nan`, `inf`, `-1`, `+5` or `1e9`, which `Double(_:)`
  /// or integer parsing would take; anything above 2^31 counts as 2^31.
  static func deltaSeconds(_ text: Substring) -> TimeInterval? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    let cap = 2_147_483_648.0
    guard text.utf8.count <= 10, let value = Double(text) else { return cap }
    return min(value, cap)
  }

  /// Parses `value`, returning `nil` for anything that is not a valid HTTP date.
  static func parse(_ value: String) -> Date? {
    let parts = value.split(separator: " ").map(String.init)
    let day: String
    let month: String
    var year: String
    let time: String
    if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" {
      // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
      (day, month, year, time) = (parts[1], parts[2], parts[3], parts[4])
    } else if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT" {
      // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
      let date = parts[1].split(separator: "-").map(String.init)
      guard date.count == 3 else { return nil }
      (day, month, year, time) = (date[0], date[1], date[2], parts[2])
      guard let short = Int(year), year.count == 2 else { return nil }
      year = String(short < 70 ? 2000 + short : 1900 + short)
    } else if parts.count == 5 {
      // asctime: Sun Nov  6 08:49:37 1994
      (month, day, time, year) = (parts[1], parts[2], parts[3], parts[4])
    } else {
      return nil
    }
    let clock = time.split(separator: ":").compactMap { Int($0) }
    guard let dayNumber = Int(day), let yearNumber = Int(year), year.count == 4,
      let monthIndex = months.firstIndex(of: month.lowercased()), clock.count == 3,
      (1...31).contains(dayNumber), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
      (0...60).contains(clock[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    guard let gmt = TimeZone(identifier: "GMT") else { return nil }
    calendar.timeZone = gmt
    let components = DateComponents(
      timeZone: gmt, year: yearNumber, month: monthIndex + 1, day: dayNumber,
      hour: clock[0], minute: clock[1], second: clock[2])
    guard let date = calendar.date(from: components),
      calendar.component(.day, from: date) == dayNumber
    else { return nil }
    return date
  }
}
