import Foundation

extension FirebaseProvider {
  /// Asks Identity Toolkit for the project's configuration (`GET /v1/projects?key=…`, which
  /// needs no user) and checks that the API key belongs to ``Configuration/projectID``.
  ///
  /// ```swift
  /// let check = try await firebase.validateConfiguration()  // .ok
  /// ```
  ///
  /// Against the Firebase Auth emulator (``Configuration/usesEmulator``), which accepts any
  /// key, only the project id is checked: the result is then
  /// ``ConfigurationCheck/notCheckable(reason:)``, saying the key could not be checked.
  ///
  /// - Returns: ``ConfigurationCheck/ok``, or ``ConfigurationCheck/notCheckable(reason:)``
  ///   against an emulator.
  /// - Throws: ``AuthError/Code/configuration`` naming ``Configuration/apiKey`` when Firebase
  ///   rejects the key (`API_KEY_INVALID`), or ``Configuration/projectID`` when the key
  ///   belongs to another project; transient errors when Firebase could not be asked.
  public func validateConfiguration() async throws -> ConfigurationCheck {
    let operation = "The Firebase configuration check (project configuration)"
    var request = TransportRequest(
      url: try configuration.identityToolkit("projects"),
      headers: ["Accept": "application/json"])
    request.timeout = configuration.requestTimeout
    let object: [String: JSONValue]
    do {
      object = try await send(request, operation: operation, secrets: []).object
    } catch let error as AuthError where error.code == .configuration {
      var named = error
      named.message +=
        " The Firebase API key (FirebaseProvider.Configuration.apiKey) is not accepted: copy "
        + "the Web API key from the Firebase console's project settings."
      throw named
    }
    if let project = object["projectId"]?.stringValue, project != configuration.projectID {
      throw AuthError(
        .configuration,
        "\(operation): the Firebase API key belongs to project "
          + "'\(ErrorText.excerpt(project, limit: 64))', not to the configured project "
          + "(FirebaseProvider.Configuration.projectID) "
          + "'\(ErrorText.excerpt(configuration.projectID, limit: 64))'.",
        provider: .firebase)
    }
    if configuration.usesEmulator {
      // The Firebase Auth emulator (and SocialLogin's) accepts any non-empty key: an answer
      // from it proves the project id, never the key. Saying `.ok` would let a wrong key
      // through to production.
      return .notCheckable(
        reason: "The Firebase Auth emulator accepts any API key, so the key "
          + "(FirebaseProvider.Configuration.apiKey) could not be checked against it; the "
          + "project id was. Check the key against Firebase itself, without "
          + "\(Configuration.emulatorEnvironmentVariable).")
    }
    return .ok
  }
}
