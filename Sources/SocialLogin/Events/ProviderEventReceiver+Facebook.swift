import Foundation
import SocialLoginCrypto

extension ProviderEventReceiver {
  /// `POST /facebook/deauthorize` and `POST /facebook/data-deletion`: the form's
  /// `signed_request`, HMAC-SHA256 with the app secret (compared in constant time), names the
  /// app-scoped user whose session ends (``SignOutReason/appDeauthorized``, or
  /// ``SignOutReason/dataDeletionRequested`` with its stored record deleted). Data deletion
  /// answers the JSON Facebook requires: a status `url` and a `confirmation_code`.
  func facebook(_ request: ProviderEventRequest, deletion: Bool) async -> ProviderEventResponse {
    let kind: ProviderEventKind = deletion ? .dataDeletion : .deauthorize
    func refuse(_ why: String) -> ProviderEventResponse {
      logRefusal(deletion ? "facebook/data-deletion" : "facebook/deauthorize", why)
      report(.facebook, kind, .rejected)
      return .json(400, ["error": "invalid_request", "error_description": .string(why)])
    }
    guard let facebook = client.providers[.facebook] as? FacebookProvider,
      let secret = facebook.configuration.appSecret, !secret.isEmpty
    else {
      return refuse("This service has no Facebook provider with an app secret.")
    }
    guard let form = FormFields.parse(request.body), let signed = form["signed_request"] else {
      return refuse("The body is not a form with one 'signed_request'.")
    }
    let userID: String
    do {
      userID = try Self.verifySignedRequest(
        signed, secret: secret, now: client.clock.coarseWallTime,
        maximumAge: configuration.maximumTokenAge)
    } catch let refusal as EventRefusal {
      return refuse(refusal.description)
    } catch {
      return refuse("The signed_request cannot be read.")
    }
    let ended: Int
    do {
      ended = try await client.endSessions(
        of: .facebook, subject: userID, sessionID: nil,
        reason: deletion ? .dataDeletionRequested : .appDeauthorized)
    } catch {
      report(.facebook, kind, .failed)
      return .json(503, ["error": "temporarily_unavailable", "error_description": "Store failed."])
    }
    report(.facebook, kind, ended > 0 ? .applied : .noSession)
    guard deletion else { return .empty(200) }
    let code = Base16.encode(SecureRandom.bytes(count: 16))
    return .json(
      200, ["url": .string(statusURL(request, code: code)), "confirmation_code": .string(code)])
  }

  /// The absolute URL of the data deletion status page for `code`.
  func statusURL(_ request: ProviderEventRequest, code: String) -> String {
    let base: String
    if let publicURL = configuration.publicURL {
      base =
        publicURL.absoluteString.hasSuffix("/")
        ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
    } else {
      base = "https://\(request.header("Host") ?? "localhost")\(configuration.prefix)"
    }
    return base + "/facebook/data-deletion/status?code=" + code
  }

  /// `GET /facebook/data-deletion/status?code=…`: the page Facebook links the user to. The
  /// sessions and tokens this service kept for the user were deleted when the request
  /// arrived, so the page says so for any well-formed code; it keeps no state.
  func deletionStatus(_ request: ProviderEventRequest) -> ProviderEventResponse {
    guard let code = request.query["code"], code.utf8.count == 32,
      code.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else {
      return ProviderEventResponse(
        status: 404, headers: ["Content-Type": "text/plain; charset=utf-8"],
        body: Array("No data deletion request has that code.\n".utf8))
    }
    return ProviderEventResponse(
      status: 200, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: Array(
        ("Data deletion request \(code): the sign-in sessions and tokens this service kept "
          + "for you were deleted when the request arrived.\n").utf8))
  }

  /// The `user_id` of a Facebook `signed_request` (`base64url(sig).base64url(payload)`),
  /// whose signature is HMAC-SHA256 of the payload segment as received, keyed by the app
  /// secret, and whose `algorithm` is `HMAC-SHA256`, `issued_at` at most `maximumAge` old.
  static func verifySignedRequest(
    _ signed: String, secret: Secret, now: TimeInterval, maximumAge: TimeInterval
  ) throws -> String {
    let parts = signed.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let signature = try? Base64URL.decode(unpadded(parts[0])),
      let payload = try? Base64URL.decode(unpadded(parts[1]))
    else {
      throw EventRefusal("The signed_request is not two base64url segments.")
    }
    let expected = HMAC<SHA256>.authenticationCode(
      for: Array(parts[1].utf8), using: Array(secret.revealed.utf8))
    guard ConstantTime.equals(signature, expected) else {
      throw EventRefusal("The signed_request's signature is not the app secret's.")
    }
    guard let object = try? JSONDecoder().decode(JSONValue.self, from: Data(payload)).objectValue,
      object["algorithm"]?.stringValue?.uppercased() == "HMAC-SHA256"
    else {
      throw EventRefusal("The signed_request's payload is not HMAC-SHA256 JSON.")
    }
    guard let issuedAt = object["issued_at"]?.doubleValue,
      issuedAt <= now + 60, now - issuedAt <= maximumAge
    else {
      throw EventRefusal("The signed_request's 'issued_at' is missing or too old.")
    }
    let userID =
      object["user_id"]?.stringValue
      ?? object["user_id"]?.doubleValue.map {
        String(format: "%.0f", $0)
      }
    guard let userID, !userID.isEmpty, userID.utf8.count <= 256 else {
      throw EventRefusal("The signed_request names no 'user_id'.")
    }
    return userID
  }

  /// `segment` without `=` padding (Facebook sends either form).
  private static func unpadded(_ segment: Substring) -> Substring {
    var segment = segment
    while segment.hasSuffix("=") { segment = segment.dropLast() }
    return segment
  }
}

/// Lower-case hex.
enum Base16 {
  static func encode(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
