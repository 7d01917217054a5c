// Crypto and JOSE throughput on one core: SHA-256 (from `runHashBench`), ChaCha20-Poly1305
// seal/open of 1 KiB (from `runAEADBench`), raw RSA-2048 and
// P-256 verification (from `runVerifyBench`), and full JWT
// verification (parse + signature + claims) for HS256, RS256-2048 and ES256, then signing
// (from `CryptoSignBench`). Compare with
// `openssl speed -seconds 3 rsa2048 ecdsap256` and `openssl speed -seconds 3 -evp sha256`.

import Foundation
import SocialLogin
import SocialLoginCrypto

enum CryptoBench {
  static func run() async -> [Figure] {
    // Hashes, then the raw signature primitives (beside `openssl speed`'s verify/s).
    var figures = (runHashBench() + runAEADBench() + runVerifyBench()).map { row in
      Figure(row.name, [("value", format(row.value)), ("unit", row.unit)])
    }
    figures += await jwtFigures()
    figures += CryptoSignBench.run()
    return figures
  }

  private static func jwtFigures() async -> [Figure] {
    guard let keys = try? JWKSet(parsing: Array(JOSEBenchFixtures.jwks.utf8)),
      keys.keys.count == 2
    else { return [Figure("jwt_verify", [("error", "setup")])] }
    let secret = Array("benchmark-secret-benchmark-secret".utf8)
    let hsKey = JWK.symmetric(secret, algorithm: .hs256)
    let hsToken = hs256Token(secret: secret)
    let policy = JWTClaimsPolicy(issuer: "https://issuer.example", audience: "client-1")
    let hs = JWTValidator(allowedAlgorithms: [.hs256], policy: policy)
    let asymmetric = JWTValidator(allowedAlgorithms: [.rs256, .es256], policy: policy)

    // Every configuration must verify before it is timed.
    guard (try? hs.validate(hsToken, key: hsKey)) != nil,
      (try? asymmetric.validate(JOSEBenchFixtures.rs256, keys: keys)) != nil,
      (try? asymmetric.validate(JOSEBenchFixtures.es256, keys: keys)) != nil
    else { return [Figure("jwt_verify", [("error", "fixtures do not verify")])] }

    var figures: [Figure] = []
    let cases: [(String, Double, () -> Void)] = [
      ("jwt_verify_hs256", 100_000, { blackHole(try? hs.validate(hsToken, key: hsKey)) }),
      (
        "jwt_verify_rs256_2048", 16_000,
        { blackHole(try? asymmetric.validate(JOSEBenchFixtures.rs256, keys: keys)) }
      ),
      (
        "jwt_verify_es256", 9_500,
        { blackHole(try? asymmetric.validate(JOSEBenchFixtures.es256, keys: keys)) }
      ),
    ]
    for (name, goal, body) in cases {
      let rate = perSecond(body)
      figures.append(
        Figure(
          name,
          [
            ("value", format(rate, decimals: 0)), ("unit", "verifications/s"),
            ("goal", format(goal, decimals: 0)), ("meets_goal", rate >= goal ? "yes" : "no"),
          ]))
    }

    // The async OIDC path (resolver + actor-free static keys), for comparison.
    let oidc = IDTokenValidator(
      configuration: .init(issuer: "https://issuer.example", clientID: "client-1"),
      keys: StaticKeyResolver(keys))
    let iterations = 2_000
    let nanoseconds = await measureNanoseconds(rounds: 5, iterations: iterations) { count in
      for _ in 0..<count {
        blackHole(try? await oidc.validate(JOSEBenchFixtures.es256, nonce: "n-0S6_WzA2Mj"))
      }
    }
    figures.append(
      Figure(
        "id_token_validate_es256_async",
        [("value", format(1e9 / nanoseconds, decimals: 0)), ("unit", "verifications/s")]))

    // Parsing alone (no signature), to show the JOSE overhead on top of the primitives.
    let parseOnly = perSecond {
      blackHole(try? CompactJWS(parsing: JOSEBenchFixtures.rs256))
    }
    figures.append(
      Figure("jws_parse_rs256", [("value", format(parseOnly, decimals: 0)), ("unit", "parses/s")]))
    return figures
  }

  private static func hs256Token(secret: [UInt8]) -> String {
    let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    let claims = Base64URL.encode(
      Array(
        #"{"iss":"https://issuer.example","sub":"user-1","aud":"client-1","iat":1700000000,"exp":4102444800,"nonce":"n-0S6_WzA2Mj"}"#
          .utf8))
    let input = header + "." + claims
    let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: secret)
    return input + "." + Base64URL.encode(mac)
  }

  /// Best of five 300 ms batches after a 300 ms warm-up, in iterations per second.
  private static func perSecond(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let batch = Duration.milliseconds(300)
    let warmUpEnd = clock.now.advanced(by: batch)
    while clock.now < warmUpEnd { body() }
    var best = 0.0
    for _ in 0..<5 {
      var iterations = 0
      let start = clock.now
      var elapsed = Duration.zero
      while elapsed < batch {
        for _ in 0..<16 { body() }
        iterations += 16
        elapsed = start.duration(to: clock.now)
      }
      best = max(best, Double(iterations) / (elapsed.nanoseconds / 1e9))
    }
    return best
  }
}
