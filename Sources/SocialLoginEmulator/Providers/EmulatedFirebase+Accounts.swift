import Foundation
import LoopbackHTTP
import SocialLogin
import SocialLoginCrypto

/// One provider linked to an emulated Firebase account.
struct FirebaseProviderLink: Sendable, Hashable {
  var providerID: String
  var rawID: String
  var federatedID: String
  var email: String?
  var displayName: String?
  var photoURL: String?
  var screenName: String?

  var json: JSONValue {
    var object: [String: JSONValue] = [
      "providerId": .string(providerID), "rawId": .string(rawID),
      "federatedId": .string(federatedID),
    ]
    if let email { object["email"] = .string(email) }
    if let displayName { object["displayName"] = .string(displayName) }
    if let photoURL { object["photoUrl"] = .string(photoURL) }
    if let screenName { object["screenName"] = .string(screenName) }
    return .object(object)
  }
}

/// An emulated Firebase user.
struct FirebaseAccount: Sendable, Hashable {
  var localID: String
  /// The emulator user whose login created the account (token revocation by `user` uses it).
  var emulatorUserID: String
  /// The tenant the account belongs to (multi-tenant projects); accounts of different tenants
  /// never match each other, as in Identity Platform.
  var tenantID: String?
  var email: String?
  var emailVerified = false
  var displayName: String?
  var photoURL: String?
  var providers: [FirebaseProviderLink] = []
  var disabled = false
  /// Tokens issued before this are dead (`validSince`, set by the Admin API).
  var validSince: Date?
  var createdAt: Date
  var lastLoginAt: Date

  /// The record `accounts:lookup` returns.
  var json: JSONValue {
    var object: [String: JSONValue] = [
      "localId": .string(localID), "emailVerified": .bool(emailVerified),
      "providerUserInfo": .array(providers.map(\.json)),
      "createdAt": .string(String(Int64(createdAt.timeIntervalSince1970 * 1000))),
      "lastLoginAt": .string(String(Int64(lastLoginAt.timeIntervalSince1970 * 1000))),
    ]
    if let email { object["email"] = .string(email) }
    if let displayName { object["displayName"] = .string(displayName) }
    if let photoURL { object["photoUrl"] = .string(photoURL) }
    if let tenantID { object["tenantId"] = .string(tenantID) }
    if disabled { object["disabled"] = true }
    if let validSince {
      object["validSince"] = .string(String(Int64(validSince.timeIntervalSince1970)))
    }
    return .object(object)
  }
}

/// The emulated project's accounts.
final class FirebaseAccountStore: Sendable {
  private let accounts = Locked([String: FirebaseAccount]())

  func account(_ localID: String) -> FirebaseAccount? { accounts.withLock { $0[localID] } }

  func account(providerID: String, rawID: String, tenantID: String?) -> FirebaseAccount? {
    accounts.withLock { accounts in
      accounts.values.first { account in
        account.tenantID == tenantID
          && account.providers.contains { $0.providerID == providerID && $0.rawID == rawID }
      }
    }
  }

  func account(email: String, tenantID: String?) -> FirebaseAccount? {
    let wanted = email.lowercased()
    return accounts.withLock {
      $0.values.first { $0.tenantID == tenantID && $0.email?.lowercased() == wanted }
    }
  }

  func save(_ account: FirebaseAccount) { accounts.withLock { $0[account.localID] = account } }

  /// Changes the account `localID` atomically; `nil` when there is none.
  func update(_ localID: String, _ change: (inout FirebaseAccount) -> Void) -> FirebaseAccount? {
    accounts.withLock { accounts in
      guard var account = accounts[localID] else { return nil }
      change(&account)
      accounts[localID] = account
      return account
    }
  }

  static func makeLocalID() -> String {
    String(
      SecureRandom.urlSafeToken(byteCount: 21).filter { $0.isLetter || $0.isNumber }.prefix(28))
  }
}

extension EmulatedFirebase {
  // MARK: accounts:lookup and accounts:update

  func lookup(_ request: EmulatorRequest, _ body: [String: JSONValue]) -> HTTPResponse {
    guard let idToken = body["idToken"]?.stringValue, !idToken.isEmpty else {
      return Self.error("MISSING_ID_TOKEN")
    }
    switch account(ofIDToken: idToken, now: request.now) {
    case .failure(let error): return error.response
    case .success(let account):
      return EmulatorJSON.response([
        "kind": "identitytoolkit#GetAccountInfoResponse", "users": [account.json],
      ])
    }
  }

  func adminLookup(_ request: EmulatorRequest, _ body: [String: JSONValue]) -> HTTPResponse {
    var found: [FirebaseAccount] = []
    // The admin form names the tenant in the body (`tenantId`), as the Admin SDKs send it.
    let tenantID = body["tenantId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    func add(_ account: FirebaseAccount?) {
      if let account, !found.contains(where: { $0.localID == account.localID }) {
        found.append(account)
      }
    }
    for id in body["localId"]?.arrayValue ?? [] {
      add(id.stringValue.flatMap { accounts.account($0) })
    }
    for email in body["email"]?.arrayValue ?? [] {
      add(email.stringValue.flatMap { accounts.account(email: $0, tenantID: tenantID) })
    }
    for federated in body["federatedUserId"]?.arrayValue ?? [] {
      guard let provider = federated["providerId"]?.stringValue,
        let raw = federated["rawId"]?.stringValue
      else { continue }
      add(accounts.account(providerID: provider, rawID: raw, tenantID: tenantID))
    }
    var answer: [String: JSONValue] = ["kind": "identitytoolkit#GetAccountInfoResponse"]
    // Like the Firebase Auth emulator, `users` is absent when nothing matched.
    if !found.isEmpty { answer["users"] = .array(found.map(\.json)) }
    return EmulatorJSON.response(.object(answer))
  }

  func update(_ request: EmulatorRequest, _ body: [String: JSONValue]) -> HTTPResponse {
    guard let idToken = body["idToken"]?.stringValue, !idToken.isEmpty else {
      return Self.error("INVALID_REQ_TYPE : Unsupported request parameters.")
    }
    guard body["disableUser"] == nil, body["validSince"] == nil else {
      return Self.error("OPERATION_NOT_ALLOWED")
    }
    switch account(ofIDToken: idToken, now: request.now) {
    case .failure(let error): return error.response
    case .success(let account):
      return applyUpdate(account.localID, body, request: request)
    }
  }

  func adminUpdate(_ request: EmulatorRequest, _ body: [String: JSONValue]) -> HTTPResponse {
    guard let localID = body["localId"]?.stringValue, !localID.isEmpty else {
      return Self.error("MISSING_LOCAL_ID")
    }
    guard accounts.account(localID) != nil else { return Self.error("USER_NOT_FOUND") }
    return applyUpdate(localID, body, request: request)
  }

  private func applyUpdate(_ localID: String, _ body: [String: JSONValue], request: EmulatorRequest)
    -> HTTPResponse
  {
    let deleted = Set((body["deleteProvider"]?.arrayValue ?? []).compactMap(\.stringValue))
    let updated = accounts.update(localID) { account in
      account.providers.removeAll { deleted.contains($0.providerID) }
      if let name = body["displayName"]?.stringValue { account.displayName = name }
      if let photo = body["photoUrl"]?.stringValue { account.photoURL = photo }
      if let disable = body["disableUser"]?.boolValue { account.disabled = disable }
      if let since = body["validSince"]?.stringValue.flatMap(TimeInterval.init)
        ?? body["validSince"]?.doubleValue
      {
        account.validSince = Date(timeIntervalSince1970: since)
      }
    }
    guard let account = updated else { return Self.error("USER_NOT_FOUND") }
    var answer = account.json.objectValue ?? [:]
    answer["kind"] = "identitytoolkit#SetAccountInfoResponse"
    answer.removeValue(forKey: "createdAt")
    answer.removeValue(forKey: "lastLoginAt")
    return EmulatorJSON.response(.object(answer))
  }
}
