import Foundation

extension FuzzHooks {
  /// The statuses a fuzzed provider answer can carry, picked by the input's first byte.
  private static let statuses = [200, 200, 200, 400, 401, 403, 404, 429, 500, 503]

  /// Provider response bodies: Facebook, X (OAuth 2.0 and 1.0a), LINE and Firebase, each
  /// provider actor driven through refresh, identity, verification and revocation (and Firebase
  /// sign-in) while every request it sends gets the fuzzed answer: status from the first byte,
  /// `Retry-After` and `x-rate-limit-reset` from the next eight, the rest as a JSON body.
  ///
  /// Blocks the calling thread until the actors finish (libFuzzer calls it synchronously); call
  /// it from a thread of your own, never from the cooperative pool.
  package static func providerResponse(_ bytes: [UInt8]) {
    let status = statuses[Int(bytes.first ?? 0) % statuses.count]
    let header = String(decoding: bytes.dropFirst().prefix(8), as: UTF8.self)
    let body = Data(bytes.dropFirst(9))
    let transport = FixedAnswerTransport(
      answer: TransportResponse(
        status: status,
        headers: [
          "Content-Type": "application/json", "Retry-After": header,
          "x-rate-limit-reset": header,
        ], body: body))
    let done = DispatchSemaphore(value: 0)
    Task {
      await driveProviders(transport)
      done.signal()
    }
    done.wait()
  }

  private static func driveProviders(_ transport: FixedAnswerTransport) async {
    let credential = Credential(
      accessToken: Secret("fuzz-access"), refreshToken: Secret("fuzz-refresh"),
      idToken: Secret("e30.e30."), tokenSecret: Secret("fuzz-secret"),
      expiresAt: Date(timeIntervalSince1970: 1_700_000_000))
    var providers: [any LoginProvider] = []
    if let x = try? XProvider.Configuration(
      clientID: "fuzz", clientSecret: Secret("fuzz"), environment: [:])
    {
      providers.append(XProvider(configuration: x, transport: transport))
    }
    if let oauth1 = try? XProvider.OAuth1Configuration(
      consumerKey: "fuzz", consumerSecret: Secret("fuzz"), environment: [:])
    {
      providers.append(XProvider(oauth1: oauth1, transport: transport))
    }
    if let facebook = try? FacebookConfiguration(
      appID: "fuzz", appSecret: Secret("fuzz"), environment: [:])
    {
      providers.append(FacebookProvider(configuration: facebook, transport: transport))
    }
    if let line = try? LINEConfiguration(
      channelID: "1234567890", channelSecret: Secret("fuzz"), environment: [:])
    {
      providers.append(LINEProvider(configuration: line, transport: transport))
    }
    let firebase = FirebaseProvider(
      configuration: .init(apiKey: "fuzz", projectID: "fuzz", environment: [:]),
      transport: transport)
    providers.append(firebase)
    for provider in providers {
      do {
        _ = try await provider.refresh(credential)
      } catch {
        _ = provider.classifyRefreshFailure(error)
      }
      _ = try? await provider.fetchIdentity(for: credential)
      _ = try? await provider.verify(.accessToken(Secret("fuzz-access")))
      _ = try? await provider.verify(.idToken(Secret("e30.e30."), nonce: nil))
      _ = try? await provider.verify(.oauth1(token: Secret("t"), secret: Secret("s")))
      _ = try? await provider.revoke(credential)
    }
    _ = try? await firebase.signInWithIdp(.facebook(accessToken: Secret("fuzz-access")))
    _ = try? await firebase.lookup(idToken: Secret("e30.e30."))
  }
}

/// Answers every request with one fixed response.
private struct FixedAnswerTransport: HTTPTransport {
  let answer: TransportResponse

  func send(_ request: TransportRequest) async throws -> TransportResponse { answer }
}
