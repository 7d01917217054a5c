import Foundation
import LoopbackHTTP
import SocialLogin

extension EmulatedX {
  /// `grant_type=client_credentials` on `/2/oauth2/token`: an app-only bearer token for a
  /// confidential client that authenticated with HTTP Basic (what
  /// `XProvider.validateConfiguration()` asks for); a public client gets
  /// `unauthorized_client`, as X answers.
  func clientCredentials(_ request: EmulatorRequest, clientID: String) -> HTTPResponse {
    guard clientID == EmulatorApps.twitterClientID, request.basicCredentials != nil else {
      return Self.oauthError(
        "unauthorized_client", "Missing valid authorization header", status: 401)
    }
    return EmulatorJSON.response([
      "token_type": "bearer", "expires_in": 7200,
      "access_token": .string(TokenRegistry.makeValue(prefix: "emu-x-app-", byteCount: 24)),
    ])
  }
}
