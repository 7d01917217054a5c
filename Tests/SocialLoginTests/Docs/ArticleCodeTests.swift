import Foundation
import Testing

/// Every ```` ```swift ```` block of every DocC article must be a verbatim excerpt (lines
/// compared with their surrounding whitespace trimmed) of a file in `Snippets/`, which
/// `swift build` compiles. So the code a user copies from the documentation is code that
/// builds today, and an API change that breaks an article breaks the build first.
@Suite("Article code is compiled snippet code", .timeLimit(.minutes(2)))
struct ArticleCodeTests {
  /// The package root: this file is `Tests/SocialLoginTests/Docs/ArticleCodeTests.swift`.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// One fenced Swift block of an article.
  struct Block {
    var article: String
    var line: Int
    var lines: [String]
  }

  /// Every `.md` file under `Sources/*/*.docc`.
  static func articles() throws -> [URL] {
    let sources = root.appendingPathComponent("Sources")
    var found: [URL] = []
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
      let moduleURL = sources.appendingPathComponent(module)
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: moduleURL.path)) ?? []
      for catalog in entries where catalog.hasSuffix(".docc") {
        let catalogURL = moduleURL.appendingPathComponent(catalog)
        guard let walker = FileManager.default.enumerator(atPath: catalogURL.path) else { continue }
        for case let path as String in walker where path.hasSuffix(".md") {
          found.append(catalogURL.appendingPathComponent(path))
        }
      }
    }
    return found.sorted { $0.path < $1.path }
  }

  /// The whitespace-trimmed lines of every snippet, by file name.
  static func snippets() throws -> [String: [String]] {
    let directory = root.appendingPathComponent("Snippets")
    var result: [String: [String]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
    where name.hasSuffix(".swift") {
      let text = try String(
        contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      result[name] = trimmedLines(text)
    }
    return result
  }

  static func trimmedLines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
  }

  /// The ```` ```swift ```` blocks of an article's text.
  static func swiftBlocks(in text: String, article: String) -> [Block] {
    var blocks: [Block] = []
    var current: Block?
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if var block = current {
        if line == "```" {
          blocks.append(block)
          current = nil
        } else {
          block.lines.append(line)
          current = block
        }
      } else if line == "```swift" {
        current = Block(article: article, line: index + 1, lines: [])
      }
    }
    return blocks
  }

  /// The name of a snippet that contains `block` as a contiguous run of lines, if any.
  static func source(of block: Block, in snippets: [String: [String]]) -> String? {
    var lines = block.lines
    while lines.first == "" { lines.removeFirst() }
    while lines.last == "" { lines.removeLast() }
    guard !lines.isEmpty else { return nil }
    for (name, snippet) in snippets.sorted(by: { $0.key < $1.key })
    where snippet.count >= lines.count {
      for start in 0...(snippet.count - lines.count)
      where snippet[start] == lines[0] && Array(snippet[start..<start + lines.count]) == lines {
        return name
      }
    }
    return nil
  }

  static func allBlocks() throws -> [Block] {
    try articles().flatMap { url in
      let text = try String(contentsOf: url, encoding: .utf8)
      let relative = String(url.path.dropFirst(root.path.count + 1))
      return swiftBlocks(in: text, article: relative)
    }
  }

  @Test func everySwiftBlockOfEveryArticleIsAnExcerptOfASnippet() throws {
    let snippets = try Self.snippets()
    let blocks = try Self.allBlocks()
    for block in blocks {
      #expect(
        Self.source(of: block, in: snippets) != nil,
        """
        \(block.article):\(block.line): this swift block is not a verbatim excerpt of any file \
        in Snippets/. Copy the code from the snippet (or change the snippet and copy it again).
        """)
    }
  }

  @Test func theCatalogsHaveArticlesWithSwiftCode() throws {
    // Guards the check above against passing vacuously (a moved catalog, a changed fence).
    let blocks = try Self.allBlocks()
    #expect(try Self.articles().count >= 10)
    #expect(blocks.count >= 10)
    #expect(Set(blocks.map(\.article)).count >= 8)
  }

  @Test func anArticleLineThatDriftsFromItsSnippetIsCaught() throws {
    let snippets = try Self.snippets()
    let block = try #require(try Self.allBlocks().first { $0.lines.count >= 3 })
    #expect(Self.source(of: block, in: snippets) != nil)
    var drifted = block
    drifted.lines[drifted.lines.count / 2] += " // changed"
    #expect(Self.source(of: drifted, in: snippets) == nil)
  }
}
