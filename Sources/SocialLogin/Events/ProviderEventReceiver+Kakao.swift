import Foundation
import SocialLoginCrypto

extension ProviderEventReceiver {
  /// `POST` (or `GET`) `/kakao/unlink`: Kakao's unlink webhook. `Authorization: KakaoAK
  /// <admin key>` (compared in constant time) proves it is Kakao; `user_id` names the account
  /// whose session ends, for the reason `referrer_type` gives. Answered 200 once
  /// authenticated, even when ending failed, as Kakao counts any other status as a failed
  /// delivery; 401 without the admin key, 400 without a `user_id`.
  func kakaoUnlink(_ request: ProviderEventRequest) async -> ProviderEventResponse {
    guard let kakao = configuration.kakao else { return .empty(404) }
    let presented = request.header("Authorization") ?? ""
    let expected = "KakaoAK " + kakao.adminKey.revealed
    guard !kakao.adminKey.isEmpty, ConstantTime.equals(Array(presented.utf8), Array(expected.utf8))
    else {
      logRefusal("kakao/unlink", "The Authorization header is not the admin key.")
      report(kakao.provider, .unlink, .rejected)
      return .empty(401)
    }
    let fields =
      request.method.uppercased() == "GET" ? request.query : FormFields.parse(request.body)
    guard let fields, let userID = fields["user_id"], !userID.isEmpty, userID.utf8.count <= 256,
      kakao.appID.map({ $0 == fields["app_id"] }) ?? true
    else {
      logRefusal("kakao/unlink", "No user_id, or another app_id.")
      report(kakao.provider, .unlink, .rejected)
      return .empty(400)
    }
    let reason: SignOutReason
    switch fields["referrer_type"] {
    case "ACCOUNT_DELETE"?, "FORCED_ACCOUNT_DELETE"?: reason = .accountDeleted
    default: reason = .appDeauthorized
    }
    do {
      let ended = try await client.endSessions(
        of: kakao.provider, subject: userID, sessionID: nil, reason: reason)
      report(kakao.provider, .unlink, ended > 0 ? .applied : .noSession)
    } catch {
      report(kakao.provider, .unlink, .failed)
    }
    return .empty(200)
  }
}
