import SocialLogin

/// The dialect entries of the built-in described providers (providers.md §11–§14).
extension EmulatorDialect {
  /// Kakao: `KOE` codes in `error_code`, `{code,msg}` API errors, numeric ids, the refresh
  /// token's own expiry in every answer that carries one.
  static var kakao: EmulatorDialect {
    var dialect = EmulatorDialect(tokenType: "bearer", numericSubject: true, refreshExpiresIn: true)
    dialect.errorCodeField = "error_code"
    dialect.errorCodes = [
      .deadRefreshToken: "KOE322", .missingRefreshToken: "KOE319", .unusableCode: "KOE320",
      .redirectMismatch: "KOE303", .badClient: "KOE010", .pkceMismatch: "KOE320",
      .accountDisabled: "KOE322",
    ]
    dialect.errorStatuses = [.badClient: 401]
    dialect.apiErrors = .kakao
    dialect.profileExtras = [("/kakao_account/profile/is_default_image", .flag(true))]
    dialect.idTokenExtras = [("nickname", .name), ("picture", .picture)]
    return dialect
  }

  /// NAVER: errors with status 200 (the description's shape), a `resultcode` envelope with a
  /// `message`, `state` required.
  static var naver: EmulatorDialect {
    var dialect = EmulatorDialect(tokenType: "bearer", requiresState: true)
    dialect.errorNames = [.unusableCode: "invalid_request", .redirectMismatch: "invalid_request"]
    dialect.apiErrors = .naver
    dialect.profileExtras = [("/message", .text("success")), ("/response/nickname", .id)]
    return dialect
  }

  /// Yahoo! JAPAN: `aud` an array, `nonce` required.
  static var yahooJapan: EmulatorDialect {
    var dialect = EmulatorDialect(audienceIsArray: true, requiresNonce: true)
    dialect.profileExtras = [("/nickname", .id), ("/locale", .text("ja-JP"))]
    return dialect
  }

  /// GitHub: form-encoded answers unless JSON is accepted, its own error names, numeric ids,
  /// comma-joined scopes, and the device flow's errors.
  static var github: EmulatorDialect {
    var dialect = EmulatorDialect(
      tokenType: "bearer", numericSubject: true, refreshExpiresIn: true,
      formUnlessJSONAccepted: true, answerScopeSeparator: ",")
    dialect.errorNames = [
      .deadRefreshToken: "bad_refresh_token", .badClient: "incorrect_client_credentials",
      .unusableCode: "bad_verification_code", .redirectMismatch: "redirect_uri_mismatch",
      .pkceMismatch: "bad_verification_code", .deviceUnknown: "incorrect_device_code",
      .deviceFlowDisabled: "device_flow_disabled",
    ]
    dialect.apiErrors = .github
    dialect.profileExtras = [("/login", .id), ("/type", .text("User"))]
    dialect.deviceVerification = ("github.com", "/login/device")
    dialect.slowDownCarriesInterval = true
    return dialect
  }

  /// Microsoft: `AADSTS` numbers in `error_codes`, tenants, `authorization_declined`, the
  /// device answer's `message`.
  static var microsoft: EmulatorDialect {
    var dialect = EmulatorDialect(tenants: true)
    dialect.errorCodeField = "error_codes"
    dialect.errorCodes = [
      .deadRefreshToken: [70008], .unusableCode: [54005], .redirectMismatch: [50011],
      .badClient: [7_000_215], .pkceMismatch: [50148], .badRequest: [900144],
      .accountDisabled: [50057], .devicePending: [70016], .deviceDenied: [70000],
      .deviceExpired: [70019], .deviceUnknown: [70000], .badTenant: [90002],
      .missingRefreshToken: [900144],
    ]
    dialect.errorNames = [
      .deviceDenied: "authorization_declined", .deviceUnknown: "bad_verification_code",
    ]
    dialect.errorStatuses = [.badClient: 401]
    dialect.idTokenExtras = [
      ("preferred_username", .email), ("oid", .subject), ("ver", .text("2.0")),
    ]
    dialect.deviceVerification = ("microsoft.com", "/devicelogin")
    dialect.deviceMessage = true
    return dialect
  }
}
