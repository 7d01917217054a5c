/// How a described provider revokes tokens.
public enum RevocationStyle: String, Hashable, Sendable, Codable {
  /// No way to revoke (Yahoo! JAPAN, Microsoft): logout forgets the tokens locally.
  case none
  /// RFC 7009 at the endpoint named `revoke`.
  case rfc7009
  /// NAVER's `grant_type=delete` at the token endpoint, which answers "success" even for a
  /// dead token: the access token is refreshed (or checked) first, so the answer proves
  /// something.
  case grantTypeDelete = "grant_type_delete"
  /// Kakao's unlink at the endpoint named `unlink` with the access token: it ends the app's
  /// link to the account and every token.
  case unlink
  /// GitHub's `DELETE /applications/{client_id}/grant` at the endpoint named `revoke`, with
  /// the client's Basic credentials and the access token in a JSON body.
  case deleteGrant = "delete_grant"
  /// The access token alone, as `access_token` in a form with the client's credentials, at
  /// the endpoint named `revoke` (LINE's `/oauth2/v2.1/revoke`); any 2xx, even empty, is
  /// success.
  case accessToken = "access_token"
}
