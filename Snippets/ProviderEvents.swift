// Provider events: an OpenID provider's back-channel logout (or Google's RISC, Facebook's,
// Kakao's and Apple's callbacks) ends the user's session on every replica. The receiver takes
// and returns plain requests, so any server mounts it; here, the project's loopback server.
import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto
import SocialLoginTesting

// snippet.hide
let clock = ManualClock(wallTime: Date(timeIntervalSince1970: 1_700_000_000))
let stub = StubTransport()
let rsaKey = RSAPrivateKey.perProcess
let signer = JWSSigner.rs256(rsaKey, keyID: "op-1")
stub.on(
  "GET", "/jwks", repeating: true,
  reply: .json(JWKSet(keys: [signer.publicJWK].compactMap { $0 }).publicJSON.jsonText))
let issuer = URL(string: "https://op.example")!
let corp = OIDCProvider(
  id: "corp",
  configuration: .init(
    issuer: issuer, clientID: "rp-1",
    metadata: OIDCProviderMetadata(
      issuer: issuer.absoluteString, authorizationEndpoint: issuer.appendingPathComponent("a"),
      tokenEndpoint: issuer.appendingPathComponent("t"),
      jwksURI: issuer.appendingPathComponent("jwks"))),
  transport: stub, clock: clock)
let store = InMemorySessionStore()
let nonceStore = InMemoryNonceStore(clock: clock)
// snippet.show
let login = try LoginClient(providers: [corp], store: store, clock: clock)
let receiver = ProviderEventReceiver(
  client: login, seen: nonceStore,  // the Redis nonce store when replicas share Redis
  configuration: .init(prefix: "/events"))

/// Any server: copy the request in, send the answer back.
func serve(_ request: HTTPRequest) async -> HTTPResponse {
  var headers: [String: String] = [:]
  for field in request.headers { headers[field.name] = field.value }
  let answer = await receiver.handle(
    ProviderEventRequest(
      method: request.method, path: request.target, headers: headers, body: request.body))
  var fields = HTTPHeaders()
  for (name, value) in answer.headers { fields.replaceOrAdd(name: name, value: value) }
  return HTTPResponse(status: answer.status, headers: fields, body: answer.body)
}

let server = try LoopbackServer(port: 0)
let serving = Task { try await server.run(serve) }
// The OP posts to http://127.0.0.1:PORT/events/oidc/backchannel-logout (behind your proxy).
// snippet.hide
let alice = try await login.register(
  credential: Credential(accessToken: "at"), identity: Identity(provider: "corp", subject: "alice"))
let token = try signer.signJWT(
  claims: [
    "iss": "https://op.example", "aud": "rp-1", "iat": 1_700_000_000, "jti": "bl-1",
    "sub": "alice", "events": ["http://schemas.openid.net/event/backchannel-logout": [:]],
  ], header: ["typ": "logout+jwt"])
let response = await receiver.handle(
  ProviderEventRequest(
    method: "POST", path: "/events/oidc/backchannel-logout",
    headers: ["Content-Type": FormEncoding.contentType],
    body: Array(FormEncoding.encode([("logout_token", token)]).utf8)))
// 200 signedOut(logged out at the provider (back-channel))
print(response.status, alice.currentState)
server.close()
serving.cancel()
