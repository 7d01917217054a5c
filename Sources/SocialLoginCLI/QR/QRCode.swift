/// A QR code (ISO/IEC 18004) of bytes, drawn by the CLI so that a phone camera can open a
/// device login's verification address without typing it.
///
/// Only what a verification URI needs: byte mode, versions 1 through ``maximumVersion``, any of
/// the four error correction levels. The mask is the one of the eight with the lowest penalty
/// (the standard's four rules), so the symbol is what other encoders make of the same input.
/// No dependency: the CLI is dependency-free like the library.
struct QRCode: Sendable, Equatable {
  /// The error correction level: how much of the symbol may be damaged and still read.
  enum Level: Sendable, CaseIterable {
    /// About 7 % of the codewords can be restored: the most data per version.
    case low
    /// About 15 %: the usual choice for a screen.
    case medium
    /// About 25 %.
    case quartile
    /// About 30 %.
    case high

    /// The two bits the format information carries for this level (not in level order).
    var formatBits: Int {
      switch self {
      case .low: 1
      case .medium: 0
      case .quartile: 3
      case .high: 2
      }
    }
  }

  /// Why a QR code could not be made.
  enum EncodingError: Error, Sendable, Equatable {
    /// The data needs more than the largest supported version holds at this level.
    case dataTooLong(bytes: Int, capacity: Int)
  }

  /// The largest version this encoder makes (57 × 57 modules); version 10-M holds 213 bytes,
  /// far more than any verification address.
  static let maximumVersion = 10

  /// The version, 1 through ``maximumVersion``.
  let version: Int
  /// The error correction level.
  let level: Level
  /// The mask pattern chosen, 0 through 7.
  let mask: Int
  /// Modules per side: `17 + 4 × version`.
  let size: Int
  /// Row-major modules, `true` for dark.
  let modules: [Bool]

  /// Encodes `data` in byte mode, in the smallest version that holds it at `level`.
  ///
  /// - Throws: ``EncodingError/dataTooLong(bytes:capacity:)`` when no supported version holds
  ///   it (never a crash: the CLI then just shows no QR code).
  init(bytes data: [UInt8], level: Level = .medium) throws(EncodingError) {
    guard let version = Self.smallestVersion(for: data.count, level: level) else {
      throw .dataTooLong(
        bytes: data.count, capacity: Self.byteCapacity(version: Self.maximumVersion, level: level))
    }
    let codewords = Self.codewords(data, version: version, level: level)
    var matrix = Matrix(version: version)
    matrix.drawFunctionPatterns()
    matrix.place(codewords)
    let mask = matrix.bestMask(level: level)
    matrix.apply(mask: mask)
    matrix.drawFormatBits(level: level, mask: mask)
    self.version = version
    self.level = level
    self.mask = mask
    self.size = matrix.size
    self.modules = matrix.modules
  }

  /// Encodes the UTF-8 bytes of `text` (readers take byte-mode data as UTF-8 or Latin-1; a
  /// URI is ASCII, where both agree).
  init(text: String, level: Level = .medium) throws(EncodingError) {
    try self.init(bytes: Array(text.utf8), level: level)
  }

  /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) it
  /// is light.
  func isDark(x: Int, y: Int) -> Bool {
    guard x >= 0, y >= 0, x < size, y < size else { return false }
    return modules[y * size + x]
  }
}
