// Starts a RedisTestServer, prints `ready PID PORT` (the server's pid), and holds it until
// stdin closes: the test kills this process and checks that the server dies with it.
import Foundation
import SocialLoginTesting

try await RedisTestServer.with { server in
  FileHandle.standardOutput.write(
    Data("ready \(server.processIdentifier ?? 0) \(server.port)\n".utf8))
  while readLine() != nil {}
}
