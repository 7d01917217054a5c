import Foundation
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting

/// Back-channel logout tokens verified and applied per second on one core (each one parsed
/// from its form, RS256-verified with the provider's cached key set, its claims checked, its
/// `jti` kept in an in-memory nonce store, and a stored session ended through an in-memory
/// store), beside the raw RS256 verification rate of the same key: the receiver's overhead is
/// the ratio between the two (goal: at least 0.8).
///
/// Each rate is given twice: per second of wall time, and per second of this process's CPU
/// time (every thread: the store's change feed wakes the client's follower on another one).
/// On a shared, loaded machine the wall-time ratio swings with the scheduler; the CPU-time
/// ratio is the cost on one core.
enum ProviderEventsBench {
  static func run() async -> [Figure] {
    let key = RSAPrivateKey.perProcess
    let signer = JWSSigner.rs256(key, keyID: "bench-1")
    let count = 2_000
    guard let issuer = URL(string: "https://op.example"),
      let publicJWK = signer.publicJWK
    else { return [] }
    let stub = StubTransport()
    stub.on(
      "GET", "/jwks", repeating: true,
      reply: .json(JWKSet(keys: [publicJWK]).publicJSON.jsonText))
    let provider = OIDCProvider(
      id: "corp",
      configuration: .init(
        issuer: issuer, clientID: "rp-1",
        metadata: OIDCProviderMetadata(
          issuer: issuer.absoluteString, authorizationEndpoint: issuer.appendingPathComponent("a"),
          tokenEndpoint: issuer.appendingPathComponent("t"),
          jwksURI: issuer.appendingPathComponent("jwks"))),
      transport: stub)
    guard
      let client = try? LoginClient(
        providers: [provider], store: InMemorySessionStore(),
        policy: RefreshPolicy(proactiveMargin: nil))
    else { return [] }
    let receiver = ProviderEventReceiver(client: client, seen: InMemoryNonceStore())
    let now = Date().timeIntervalSince1970.rounded(.down)
    var requests: [ProviderEventRequest] = []
    for index in 0...count {
      _ = try? await client.register(
        credential: Credential(accessToken: "at"),
        identity: Identity(provider: "corp", subject: "user-\(index)"))
      guard
        let token = try? signer.signJWT(claims: [
          "iss": .string(issuer.absoluteString), "aud": "rp-1", "iat": .number(now),
          "jti": .string("bl-\(index)"), "sub": .string("user-\(index)"),
          "events": ["http://schemas.openid.net/event/backchannel-logout": [:]],
        ])
      else { return [] }
      requests.append(
        ProviderEventRequest(
          method: "POST", path: "/oidc/backchannel-logout",
          body: Array(FormEncoding.encode([("logout_token", token)]).utf8)))
    }
    // The first one fetches the key set: not timed.
    guard await receiver.handle(requests[0]).status == 200 else { return [] }
    let clock = ContinuousClock()
    var applied = 0
    let cpuBefore = ReplicasBench.cpuMicroseconds(self: true)
    let elapsed = await clock.measure {
      for request in requests.dropFirst() where await receiver.handle(request).status == 200 {
        applied += 1
      }
    }
    let logoutCPU = max(1, ReplicasBench.cpuMicroseconds(self: true) - cpuBefore) / 1e6
    let logoutRate = Double(applied) / elapsed.seconds
    let logoutCPURate = Double(applied) / logoutCPU
    let digest = SHA256.hash(Array("bench".utf8))
    guard let signature = try? key.signature(digest: digest, hash: .sha256) else { return [] }
    var verified = 0
    let verifyCPUBefore = ReplicasBench.cpuMicroseconds(self: true)
    let verifyElapsed = clock.measure {
      for _ in 0..<(3 * count)
      where key.publicKey.isValidPKCS1v15Signature(
        signature, digest: digest, hash: .sha256)
      {
        verified += 1
      }
    }
    let verifyCPU = max(1, ReplicasBench.cpuMicroseconds(self: true) - verifyCPUBefore) / 1e6
    let verifyRate = Double(verified) / verifyElapsed.seconds
    let verifyCPURate = Double(verified) / verifyCPU
    return [
      Figure(
        "provider_events_backchannel_logout",
        [
          ("tokens", "\(applied)"), ("per_second", String(format: "%.0f", logoutRate)),
          ("raw_rs256_verify_per_second", String(format: "%.0f", verifyRate)),
          ("ratio", String(format: "%.2f", verifyRate > 0 ? logoutRate / verifyRate : 0)),
          ("per_cpu_second", String(format: "%.0f", logoutCPURate)),
          ("raw_rs256_verify_per_cpu_second", String(format: "%.0f", verifyCPURate)),
          (
            "cpu_ratio",
            String(format: "%.2f", verifyCPURate > 0 ? logoutCPURate / verifyCPURate : 0)
          ),
        ])
    ]
  }
}

extension Duration {
  /// The duration in seconds, at least a nanosecond (no division by zero).
  fileprivate var seconds: Double {
    max(1e-9, Double(components.seconds) + Double(components.attoseconds) / 1e18)
  }
}
