import Foundation
import LoopbackHTTP
import SocialLogin

extension EmulatedFirebase {
  /// `GET /v1/projects?key=…`: the project's configuration (`projectId`,
  /// `authorizedDomains`), which `FirebaseProvider.validateConfiguration()` reads. Like every
  /// Identity Toolkit endpoint here (and the Firebase Auth emulator) it accepts any non-empty
  /// key; a missing key is refused.
  func projectConfig(_ request: EmulatorRequest) -> HTTPResponse {
    let key = request.query("key") ?? request.http.headers["X-Goog-Api-Key"]
    guard let key, !key.isEmpty else {
      return Self.error(
        "The request is missing a valid API key.", status: 403, reason: "forbidden")
    }
    return EmulatorJSON.response([
      "projectId": .string(projectID), "authorizedDomains": ["localhost", "127.0.0.1"],
    ])
  }
}
