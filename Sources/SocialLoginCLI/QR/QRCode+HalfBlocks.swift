/// The symbol as text for a terminal: Unicode half blocks, two modules per character.
extension QRCode {
  /// Lines of `▀`, `▄`, `█` and spaces, each character one column and two rows of modules,
  /// with a `quietZone`-module light border (the standard asks for 4).
  ///
  /// A block stands for a *light* module (the `qrencode -t UTF8` convention): terminals
  /// usually draw light text on a dark background, so the blocks make the light modules and
  /// the quiet zone, and the background the dark ones. `lightBlocks: false` draws dark
  /// modules as blocks, for dark text on a light background.
  func halfBlocks(quietZone: Int = 4, lightBlocks: Bool = true) -> String {
    let range = -quietZone..<(size + quietZone)
    func filled(_ x: Int, _ y: Int) -> Bool {
      // Below the last row (an odd number of rows) nothing is drawn.
      guard y < size + quietZone else { return false }
      return isDark(x: x, y: y) != lightBlocks
    }
    var lines: [String] = []
    for top in stride(from: -quietZone, to: size + quietZone, by: 2) {
      var line = ""
      for x in range {
        switch (filled(x, top), filled(x, top + 1)) {
        case (true, true): line += "█"
        case (true, false): line += "▀"
        case (false, true): line += "▄"
        case (false, false): line += " "
        }
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
