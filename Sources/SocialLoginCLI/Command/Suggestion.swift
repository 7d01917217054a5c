/// "Did you mean ...?" for a mistyped option, command or provider name: the known word
/// closest to what was typed, or none when nothing is close.
///
/// A word is matched, in order, by: the same word in another case (`Facebook`); a common
/// abbreviation of a provider (`fb`, `x`); being the start of exactly one known word (`face`);
/// and the fewest edits (insertions, deletions, substitutions and swaps of two neighbours:
/// `--no-brower`, `linr`), at most a third of the word's length. Only words of at most
/// ``maximumLength`` characters are compared, so a pasted or hostile command line costs
/// nothing however long it is.
enum Suggestion {
  /// Longer words are not compared (no real option or command is this long).
  static let maximumLength = 40

  /// What people type for a provider, and the command it means.
  static let abbreviations: [String: String] = [
    "fb": "facebook", "meta": "facebook", "x": "twitter", "tw": "twitter", "goog": "google",
    "openid": "oidc", "siwa": "apple",
  ]

  /// The known word `typed` most likely meant, or `nil`.
  static func closest(to typed: String, among known: [String]) -> String? {
    guard !typed.isEmpty, typed.count <= maximumLength else { return nil }
    let word = bare(typed)
    guard !word.isEmpty else { return nil }
    let candidates = known.filter { $0.count <= maximumLength * 2 }
    if let same = candidates.first(where: { bare($0) == word }) { return same }
    if let meant = abbreviations[word], let match = candidates.first(where: { bare($0) == meant }) {
      return match
    }
    if word.count >= 2 {
      let starting = candidates.filter { bare($0).hasPrefix(word) }
      if starting.count == 1 { return starting[0] }
    }
    let limit = max(1, word.count / 3)
    var best: (word: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(Array(word), Array(bare(candidate)), limit: limit)
      if distance <= limit, distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.word
  }

  /// `": did you mean 'WORD'?"`, or nothing when no known word is close.
  static func didYouMean(_ typed: String, among known: [String]) -> String {
    closest(to: typed, among: known).map { ": did you mean '\($0)'?" } ?? ""
  }

  /// The word lower-cased, without the dashes of an option name.
  private static func bare(_ word: String) -> String {
    String(word.drop { $0 == "-" }).lowercased()
  }

  /// The optimal-string-alignment distance between `a` and `b` (a swap of two neighbours
  /// counts one edit), or `limit + 1` as soon as it must exceed `limit`.
  static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previousRow: [Int] = []
    var row = Array(0...b.count)
    for i in 1...a.count {
      let beforePrevious = previousRow
      previousRow = row
      row = [i] + Array(repeating: 0, count: b.count)
      var smallest = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, beforePrevious[j - 2] + 1)
        }
        row[j] = value
        smallest = min(smallest, value)
      }
      if smallest > limit { return limit + 1 }
    }
    return row[b.count]
  }
}
