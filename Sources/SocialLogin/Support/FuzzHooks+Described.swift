import Foundation

extension FuzzHooks {
  /// A description file (`--provider-file`): decoded, turned into a configuration with every
  /// parameter it names, and every endpoint URL formed.
  package static func providerDescription(_ bytes: [UInt8]) {
    guard let description = try? JSONDecoder().decode(ProviderDescription.self, from: Data(bytes))
    else { return }
    let parameters = Dictionary(
      description.parameters.prefix(16).map { ($0, "fuzz") },
      uniquingKeysWith: { first, _ in first })
    guard
      let configuration = try? DescribedProviderConfiguration(
        description, clientID: "fuzz-client", clientSecret: "fuzz-secret",
        parameters: parameters, emulatorHost: nil, environment: [:])
    else { return }
    for name in description.endpointNames.prefix(64) { _ = configuration.url(name) }
    _ = configuration.effectiveScopes
  }

  /// One answer read through a built-in description chosen by the first byte (its low five
  /// bits pick the description, bit 0x20 the status: 200 or 400; `@`, `A`, `B`, `C`, `D` are
  /// Kakao, NAVER, Yahoo! JAPAN, GitHub and Microsoft with 200): as a token answer, a refresh
  /// failure, a profile, an email list, an access-token check and a device authorization.
  /// One description per input keeps each execution cheap, so libFuzzer runs many.
  package static func describedAnswer(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let descriptions = ProviderDescription.builtIn
    let description = descriptions[Int(selector & 0x1F) % descriptions.count]
    let status = selector & 0x20 == 0 ? 200 : 400
    let body = bytes.dropFirst()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let response = TransportResponse(
      status: status, headers: ["Content-Type": "application/json"], body: Data(body))
    do {
      _ = try DescribedAnswers.tokenAnswer(
        response, description: description, receivedAt: now, requestedScopes: ["openid"],
        operation: "fuzz")
    } catch {
      _ = DescribedAnswers.refreshFailure(error, dialect: description.errors)
    }
    guard let parsed = DescribedJSON(parsing: body) else { return }
    _ = try? DescribedAnswers.identity(
      from: parsed, rules: description.identity, provider: description.id, source: "fuzz")
    if let emails = description.identity.emails {
      _ = DescribedAnswers.primaryEmail(in: parsed, rules: emails)
    }
    if let check = description.accessTokenCheck {
      _ = try? DescribedAnswers.tokenCheck(parsed, check: check, provider: description.id)
    }
    _ = try? DescribedAnswers.deviceAuthorization(
      parsed, receivedAt: now, scopes: [], provider: description.id, operation: "fuzz")
    _ = parsed.jsonValue
  }
}
