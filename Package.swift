// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "SocialLogin",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "SocialLogin", targets: ["SocialLogin"]),
    .library(name: "SocialLoginTesting", targets: ["SocialLoginTesting"]),
    .library(name: "SocialLoginEmulator", targets: ["SocialLoginEmulator"]),
    .library(name: "SocialLoginRedis", targets: ["SocialLoginRedis"]),
    .executable(name: "sociallogin", targets: ["SocialLoginCLI"]),
    .executable(name: "sociallogin-bench", targets: ["SocialLoginBench"]),
  ],
  targets: [
    // Pure-Swift hashes, MACs, base64url and signature verification. Swift stdlib only.
    .target(name: "SocialLoginCrypto"),
    // A small, strict HTTP/1.1 server bound to loopback only (RFC 8252 redirects, emulator).
    .target(name: "LoopbackHTTP"),
    .target(name: "SocialLogin", dependencies: ["SocialLoginCrypto", "LoopbackHTTP"]),
    // Starts a child process that the kernel kills when the test process dies (fork, then
    // PR_SET_PDEATHSIG in the child, which Foundation's Process cannot do), for test servers.
    .target(name: "CChildProcess"),
    .target(
      name: "SocialLoginTesting",
      dependencies: ["SocialLogin", "SocialLoginCrypto", "LoopbackHTTP", "CChildProcess"]),
    // Facebook, X, LINE, OpenID and Firebase Auth on one loopback port, for demos and tests.
    .target(
      name: "SocialLoginEmulator",
      dependencies: ["SocialLogin", "SocialLoginCrypto", "LoopbackHTTP"]
    ),
    // Sessions, pending logins and refresh leases shared by many replicas through Redis.
    .target(name: "SocialLoginRedis", dependencies: ["SocialLogin", "SocialLoginCrypto"]),
    .executableTarget(
      name: "SocialLoginCLI",
      dependencies: ["SocialLogin", "SocialLoginEmulator", "SocialLoginRedis"]
    ),
    .executableTarget(
      name: "SocialLoginBench",
      dependencies: [
        "SocialLogin", "SocialLoginTesting", "SocialLoginCrypto", "SocialLoginEmulator",
        "SocialLoginRedis", "GlewlwydTestPeer",
      ]
    ),
    // Test support, not a product: a local Glewlwyd (fixed test password, its setup script)
    // for the integration tests and `sociallogin-bench login`.
    .target(
      name: "GlewlwydTestPeer",
      dependencies: ["SocialLogin", "LoopbackHTTP"],
      path: "Tests/SocialLoginIntegrationTests/Support/Glewlwyd",
      exclude: ["glewlwyd-peer.sh"]
    ),
    // Test support, not a product: the built `sociallogin` binary as a test's child process.
    .target(
      name: "CLITestProcess", dependencies: ["CChildProcess"], path: "Tests/Support/CLITestProcess"
    ),
    // Test support, not a product: a process that starts a RedisTestServer and waits, for the
    // test that kills it and checks that its redis-server dies too.
    .executableTarget(
      name: "RedisTestServerHolder",
      dependencies: ["SocialLoginTesting"],
      path: "Tests/Support/RedisTestServerHolder"
    ),
    // Test support, not a product: CPU-heavy test work off the cooperative pool, and deadlines
    // that turn a hang into a failure (see Tests/Support/TestPacing).
    .target(name: "TestPacing", dependencies: ["CLITestProcess"], path: "Tests/Support/TestPacing"),
    .testTarget(
      name: "SocialLoginCryptoTests",
      dependencies: ["SocialLoginCrypto", "TestPacing"],
      resources: [.copy("Resources")]
    ),
    .testTarget(name: "LoopbackHTTPTests", dependencies: ["LoopbackHTTP"]),
    .testTarget(
      name: "SocialLoginEmulatorTests",
      dependencies: [
        "SocialLoginEmulator", "SocialLogin", "SocialLoginTesting", "SocialLoginCrypto",
        "CLITestProcess", "TestPacing",
      ]
    ),
    // Talks to a real redis-server that the tests start on 127.0.0.1.
    .testTarget(
      name: "SocialLoginRedisTests",
      dependencies: [
        "SocialLoginRedis", "SocialLogin", "SocialLoginTesting", "SocialLoginEmulator",
        "CLITestProcess", "TestPacing",
      ]
    ),
    .testTarget(
      name: "SocialLoginTests",
      // SocialLoginRedis only for the fuzz corpus replay of its reply parser (`resp_reply`).
      dependencies: [
        "SocialLogin", "SocialLoginTesting", "SocialLoginCrypto", "SocialLoginRedis",
        "CLITestProcess", "TestPacing",
      ]
    ),
    // Talks to real servers on 127.0.0.1 (Glewlwyd); see Tests/SocialLoginIntegrationTests.
    // The bench's own small parts (the chaos bench's argument parsing and figure line).
    .testTarget(name: "SocialLoginBenchTests", dependencies: ["SocialLoginBench"]),
    // The CLI's own parts: the QR encoder (checked with zbarimg from Debian's zbar-tools).
    .testTarget(
      name: "SocialLoginCLITests", dependencies: ["SocialLoginCLI", "TestPacing", "CLITestProcess"]),
    .testTarget(
      name: "SocialLoginIntegrationTests",
      dependencies: [
        "SocialLogin", "SocialLoginTesting", "GlewlwydTestPeer", "CLITestProcess", "TestPacing",
      ],
      exclude: ["Support/Glewlwyd"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
