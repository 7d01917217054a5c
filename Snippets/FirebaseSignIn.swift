// Facebook Login, then a Firebase session (the Firebase Auth REST API, no Firebase SDK):
//   export FIREBASE_API_KEY=...  FIREBASE_PROJECT_ID=...
//   export SOCIALLOGIN_FACEBOOK_CLIENT_ID=...  SOCIALLOGIN_FACEBOOK_CLIENT_SECRET=...
//   export FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099   # optional: the Firebase emulator
//   swift run FirebaseSignIn [--emulator]   # --emulator: verify its unsigned ID tokens
import Foundation
import SocialLogin

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("FirebaseSignIn")
let environment = ProviderEnvironment()  // the variables above; also the emulator variables
// The emulator's ID tokens are unsigned: code, never a variable, lets them verify.
let unsigned = CommandLine.arguments.contains("--emulator")
let client: LoginClient
do {
  client = try LoginClient(
    providers: [
      try environment.facebook(),
      try environment.firebase(acceptsUnsignedEmulatorTokens: unsigned),
    ],
    store: try FileSessionStore(directory: directory))
} catch let error as AuthError where error.code == .configuration {
  print(error.message)  // names the missing variable
  exit(0)
}
let firebase = try FirebaseAuth(client: client)

let facebook = try await client.login(.facebook, using: LoopbackUserAgent(port: 8765))
do {
  let signedIn = try await firebase.signIn(with: facebook)  // accounts:signInWithIdp
  print("Firebase user", signedIn.user.localID, "new:", signedIn.user.isNewUser)
  let idToken = try await signedIn.idToken()  // one hour; refreshed through securetoken
  let checked = try await firebase.verifyIDToken(idToken)  // what your backend does
  print("verified: user", checked.userID, "via", checked.signInProvider ?? "?")
} catch let error as AuthError where error.code == .accountExistsWithDifferentCredential {
  let conflict = error.firebaseError?.conflict
  print("sign in with", conflict?.verifiedProviders ?? [], "first, then link Facebook")
} catch let error as AuthError where error.code == .invalidIdPResponse {
  print("Firebase refused the Facebook token: is the Facebook provider enabled?", error.message)
}
