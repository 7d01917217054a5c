// Private-key throughput: raw ECDSA P-256 and RSA-2048 CRT signatures, whole JWT signing
// (header + claims + base64url + signature) for ES256 and RS256, and RSA-2048 key generation.
// Compare with `openssl speed -seconds 3 rsa2048 ecdsap256` (sign/s column).

import Foundation
import SocialLogin
import SocialLoginCrypto

enum CryptoSignBench {
  static func run() -> [Figure] {
    var figures: [Figure] = []
    let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0".utf8)
    let ecKey = P256PrivateKey()
    figures.append(rate("p256_ecdsa_sign", unit: "signs/s") { ecKey.signature(for: message).r[0] })

    guard let rsaKey = try? RSAPrivateKey.generate(bitCount: 2048) else {
      return figures + [Figure("rsa2048_sign", [("error", "key generation failed")])]
    }
    figures.append(
      rate("rsa2048_crt_sign", unit: "signs/s") {
        (try? rsaKey.signature(for: message))?.first ?? 0
      })

    let claims: [String: JSONValue] = [
      "iss": "https://issuer.example", "sub": "user-1", "aud": "client-1",
      "iat": 1_700_000_000, "exp": 4_102_444_800, "nonce": "n-0S6_WzA2Mj",
    ]
    let es256 = JWSSigner.es256(ecKey, keyID: "ec")
    let rs256 = JWSSigner.rs256(rsaKey, keyID: "rsa")
    figures.append(
      rate("jwt_sign_es256", unit: "tokens/s") {
        UInt8(truncatingIfNeeded: (try? es256.signJWT(claims: claims))?.utf8.count ?? 0)
      })
    figures.append(
      rate("jwt_sign_rs256_2048", unit: "tokens/s") {
        UInt8(truncatingIfNeeded: (try? rs256.signJWT(claims: claims))?.utf8.count ?? 0)
      })

    // Key generation: the median of five runs (its time varies with how far the prime search
    // has to walk).
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<5 {
      let elapsed = clock.measure { _ = try? RSAPrivateKey.generate(bitCount: 2048) }
      times.append(
        Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
    }
    times.sort()
    figures.append(
      Figure(
        "rsa2048_keygen",
        [
          ("median", format(times[2], decimals: 0)), ("min", format(times[0], decimals: 0)),
          ("max", format(times[4], decimals: 0)), ("unit", "ms"),
        ]))
    return figures
  }

  /// Best of five 300 ms batches after a warm-up, in operations per second.
  private static func rate(_ name: String, unit: String, _ body: () -> UInt8) -> Figure {
    let clock = ContinuousClock()
    var sink: UInt8 = 0
    for _ in 0..<3 { sink ^= body() }
    var best = 0.0
    for _ in 0..<5 {
      var iterations = 0
      let start = clock.now
      var elapsed = Duration.zero
      while elapsed < .milliseconds(300) {
        sink ^= body()
        iterations += 1
        elapsed = start.duration(to: clock.now)
      }
      best = max(best, Double(iterations) / (elapsed.nanoseconds / 1e9))
    }
    if sink == 0x5A && best < 0 { print("unreachable") }
    return Figure(name, [("value", format(best, decimals: 0)), ("unit", unit)])
  }
}
