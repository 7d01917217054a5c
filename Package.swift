// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "SocialLogin",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "SocialLogin", targets: ["SocialLogin"]),
    .library(name: "SocialLoginTesting", targets: ["SocialLoginTesting"]),
    .executable(name: "sociallogin", targets: ["SocialLoginCLI"]),
    .executable(name: "sociallogin-bench", targets: ["SocialLoginBench"]),
  ],
  targets: [
    // Pure-Swift hashes, MACs, base64url and signature verification. Swift stdlib only.
    .target(name: "SocialLoginCrypto"),
    // A small, strict HTTP/1.1 server bound to loopback only (RFC 8252 redirects, emulator).
    .target(name: "LoopbackHTTP"),
    .target(name: "SocialLogin", dependencies: ["SocialLoginCrypto", "LoopbackHTTP"]),
    .target(name: "SocialLoginTesting", dependencies: ["SocialLogin", "LoopbackHTTP"]),
    .executableTarget(name: "SocialLoginCLI", dependencies: ["SocialLogin"]),
    .executableTarget(
      name: "SocialLoginBench",
      dependencies: ["SocialLogin", "SocialLoginTesting", "SocialLoginCrypto"]
    ),
    .testTarget(
      name: "SocialLoginCryptoTests",
      dependencies: ["SocialLoginCrypto"],
      resources: [.copy("Resources")]
    ),
    .testTarget(name: "LoopbackHTTPTests", dependencies: ["LoopbackHTTP"]),
    .testTarget(
      name: "SocialLoginTests",
      dependencies: ["SocialLogin", "SocialLoginTesting", "SocialLoginCrypto"]
    ),
    // Talks to real servers on 127.0.0.1 (Glewlwyd); see Tests/SocialLoginIntegrationTests.
    .testTarget(
      name: "SocialLoginIntegrationTests",
      dependencies: ["SocialLogin", "SocialLoginTesting"],
      resources: [.copy("Fixtures")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
