import Foundation
import SocialLogin
import SocialLoginTesting
import Testing

/// X end to end over real HTTP on 127.0.0.1: ``LoginClient`` with a loopback
/// ``HeadlessUserAgent`` and ``URLSessionTransport``, against ``FakeXServer`` reached through
/// the emulator mapping of every endpoint.
@Suite(.timeLimit(.minutes(3)), .serialized)
struct XLoopbackTests {
  let store = InMemorySessionStore()

  func client(_ provider: XProvider) throws -> LoginClient {
    try LoginClient(
      providers: [provider], store: store, policy: RefreshPolicy(proactiveMargin: nil),
      userAgent: HeadlessUserAgent.loopback(timeout: .seconds(60), browser: FakeXServer.approve))
  }

  @Test func oauth2LoginRefreshIdentityAndRevoke() async throws {
    let x = try FakeXServer()
    x.start()
    let configuration = try XFixture.configuration { $0.emulatorHost = x.emulator }
    let login = try client(XProvider(configuration: configuration))

    let session = try await login(.x)
    #expect(session.key == SessionKey(provider: .twitter, subject: XFixture.userID))
    #expect(await session.identity?.name == "Developers")
    #expect(await session.identity?.pictureURL?.host == "pbs.twimg.com")
    let first = try #require(await session.credential)
    #expect(first.refreshToken != nil)
    let token = try await session.freshAccessToken()
    #expect(token == first.accessToken.revealed)

    // Refresh: X rotates the refresh token; the old one is dead from now on.
    let refreshed = try await session.forceRefresh().accessToken.revealed
    #expect(refreshed != token)
    let second = try #require(try await store.load(session.key)?.credential)
    #expect(second.refreshToken != first.refreshToken)
    #expect(x.ledger.spentTokens == [first.refreshToken?.revealed].compactMap { $0 })

    // The refreshed token is good at /2/users/me.
    let provider = try XFixture.configuration { $0.emulatorHost = x.emulator }
    let identity = try await XProvider(configuration: provider).fetchIdentity(for: second)
    #expect(identity.subject == XFixture.userID)

    // Sign out with revocation: both tokens die at X.
    let outcome = try await session.signOut()
    guard case .revoked = outcome else {
      Issue.record("revocation outcome \(outcome)")
      return
    }
    let dead = await authError {
      _ = try await XProvider(configuration: provider).fetchIdentity(for: second)
    }
    #expect(dead?.code == .invalidToken)
    #expect(x.requests.filter { $0 == "POST /api.x.com/2/oauth2/revoke" }.count == 2)
    await x.stop()
  }

  @Test func oauth1LoginIdentityAndRevoke() async throws {
    let x = try FakeXServer()
    x.start()
    var configuration = try XProvider.OAuth1Configuration(
      consumerKey: XFixture.consumerKey, consumerSecret: XFixture.consumerSecret,
      environment: [XFixture.emulatorVariable: x.emulator.description])
    configuration.forceLogin = false
    let provider = XProvider(oauth1: configuration)
    let login = try client(provider)

    let session = try await login(.twitter)
    #expect(session.key == SessionKey(provider: .twitter, subject: XFixture.userID))
    #expect(await session.identity?.email == "dev@example.com")
    let credential = try #require(await session.credential)
    #expect(credential.tokenSecret != nil)
    #expect(try await session.freshAccessToken() == credential.accessToken.revealed)

    let verified = try await login.verify(
      .oauth1(token: credential.accessToken, secret: try #require(credential.tokenSecret)),
      from: .x)
    #expect(verified.audience == .proven(audience: XFixture.consumerKey))

    let outcome = try await session.signOut()
    guard case .revoked = outcome else {
      Issue.record("revocation outcome \(outcome)")
      return
    }
    let dead = await authError { _ = try await provider.fetchIdentity(for: credential) }
    #expect(dead?.code == .invalidToken)
    #expect(dead?.providerCode == "89")
    await x.stop()
  }

  @Test func aWrongConsumerSecretIsRejectedWithCode32() async throws {
    let x = try FakeXServer()
    x.start()
    let provider = XProvider(
      oauth1: try XProvider.OAuth1Configuration(
        consumerKey: XFixture.consumerKey, consumerSecret: "not-the-SECRET",
        emulatorHost: x.emulator))
    let login = try client(provider)
    let error = await authError { _ = try await login.login(.twitter) }
    #expect(error?.code == .providerError)
    #expect(error?.providerCode == "32")
    #expect(error?.message.contains("not-the-SECRET") == false)
    await x.stop()
  }
}
