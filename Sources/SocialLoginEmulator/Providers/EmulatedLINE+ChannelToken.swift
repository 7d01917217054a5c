import Foundation
import LoopbackHTTP
import SocialLogin

extension EmulatedLINE {
  /// `POST /oauth2/v3/token` with `grant_type=client_credentials`, `client_id` and
  /// `client_secret`: a stateless channel access token (what
  /// `LINEProvider.validateConfiguration()` asks for); a wrong channel id or secret gets
  /// `invalid_client`.
  func channelToken(_ request: EmulatorRequest) -> HTTPResponse {
    guard !request.isMalformedForm, request.repeatedParameter == nil else {
      return Self.oauthError("invalid_request", "invalid request body")
    }
    guard request.form("grant_type") == "client_credentials" else {
      return Self.oauthError("unsupported_grant_type", "unsupported grant_type")
    }
    guard request.form("client_id") == EmulatorApps.lineChannelID,
      request.form("client_secret") == EmulatorApps.lineChannelSecret
    else {
      return Self.oauthError("invalid_client", "invalid client_id or client_secret")
    }
    return EmulatorJSON.response([
      "token_type": "Bearer", "expires_in": 900,
      "access_token": .string(TokenRegistry.makeValue(prefix: "emu-line-channel-", byteCount: 24)),
    ])
  }
}
