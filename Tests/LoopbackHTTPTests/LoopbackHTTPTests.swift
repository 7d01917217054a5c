import LoopbackHTTP
import Testing

@Suite struct LoopbackHTTPTests {
  @Test func versionIsSet() { #expect(!LoopbackHTTP.version.isEmpty) }
}
