// swift-tools-version:6.2
// libFuzzer targets for SocialLogin's parsers: one executable per entry of
// `SocialLoginTesting.FuzzTargets`. Build and run them with `./run.sh SECONDS`; the root
// package's tests replay `Corpus/` without libFuzzer (FuzzCorpusReplayTests).
import PackageDescription

/// The fuzz targets; each name is a `FuzzTargets` entry (or, for `resp_reply`, the Redis
/// module's `RedisFuzzTargets`), a `Sources/<name>` folder and a `Corpus/<name>` folder. A new
/// parser: add the name here, the entry in `FuzzTargets.all`, `Sources/<name>/Entry.swift` and
/// a seed in `Corpus/<name>/`.
let targetNames = [
  "http_request", "strict_json", "jwk", "jws_verify", "base64url", "callback_url",
  "token_response", "oauth1_response", "store_file", "x509", "provider_response", "resp_reply",
  "aead_open", "sealed_open", "store_hint", "provider_description", "described_answer",
]

let package = Package(
  name: "SocialLoginFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "SocialLogin", path: "../..")],
  targets: [
    // libFuzzer's callback and driver, shared by every executable.
    .target(
      name: "FuzzDriver",
      dependencies: [
        .product(name: "SocialLoginTesting", package: "SocialLogin"),
        .product(name: "SocialLoginRedis", package: "SocialLogin"),
      ])
  ]
    + targetNames.map { name in
      .executableTarget(
        name: "fuzz-\(name)", dependencies: ["FuzzDriver"], path: "Sources/\(name)")
    },
  swiftLanguageModes: [.v6]
)
