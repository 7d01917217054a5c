import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How a ``FileSessionStore`` keeps a ``SpendIntent``: one line in the session's lease file
/// (`<stem>.lease`), written under the lease's `flock` and cleared when the lease is released.
///
/// `sociallogin-intent 1 <digest> <owner> <milliseconds since 1970>`. The kernel drops a
/// killed process's `flock` at once, so the next process takes the lease immediately and finds
/// the line. What is read is bounded (``limit`` bytes) and checked field by field: anything
/// else counts as no intent.
enum FileSpendIntent {
  /// The most bytes read from a lease file.
  static let limit = 256

  /// This process's name as an intent's owner: its process id and a random tag (process ids
  /// are reused).
  static let owner = "pid-\(getpid())-\(FileSessionStore.randomSuffix(bytes: 4))"

  /// The line for `intent`.
  static func line(_ intent: SpendIntent) -> String {
    let milliseconds = Int64((intent.recordedAt.timeIntervalSince1970 * 1000).rounded())
    return "sociallogin-intent 1 \(intent.refreshTokenDigest) \(intent.owner) \(milliseconds)\n"
  }

  /// Parses a lease file's bytes; `nil` for anything but one well-formed line.
  static func parse(_ bytes: some BidirectionalCollection<UInt8>) -> SpendIntent? {
    guard bytes.count <= limit, bytes.last == 0x0A else { return nil }
    let text = String(decoding: bytes.dropLast(), as: UTF8.self)
    let fields = text.split(separator: " ", omittingEmptySubsequences: false)
    guard fields.count == 5, fields[0] == "sociallogin-intent", fields[1] == "1" else {
      return nil
    }
    return SpendIntent(digest: fields[2], owner: fields[3], milliseconds: fields[4])
  }

  /// The intent in the lease file open at `fd`, if any.
  static func read(from fd: Int32) -> SpendIntent? {
    var buffer = [UInt8](repeating: 0, count: limit + 1)
    let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return parse(buffer[0..<count])
  }

  /// Replaces the lease file's content with `intent`'s line, durably.
  static func write(_ intent: SpendIntent, to fd: Int32, path: String) throws(AuthError) {
    try POSIXFile.replaceContent(
      of: fd, with: Array(line(intent).utf8), path: path, what: "lease file")
  }
}
