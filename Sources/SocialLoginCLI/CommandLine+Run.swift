import Foundation
import SocialLogin

let usage = """
  USAGE: sociallogin <command> [options]

  Sign people in with Facebook, X, LINE and OpenID Connect providers, from a terminal.

  COMMANDS:
    demo            See the SDK sign in, refresh and recover against the built-in emulator.
    emulator        Run the provider emulator (Facebook, X, LINE, OpenID) in the foreground.
    login oidc      Sign in with an OpenID Connect provider (see 'sociallogin login --help').
    jws verify      Verify a compact JWS signature.
    jwt verify      Verify a JWT's signature and claims.

  OPTIONS:
    -h, --help      Show this help.
    --version       Print the SDK version.

  """

/// Runs the CLI and returns the process exit status (0 ok, 1 failure, 2 bad usage).
func runCommandLine(_ arguments: [String]) -> Int32 {
  guard let first = arguments.first else {
    writeError(usage)
    return 2
  }
  switch first {
  case "-h", "--help", "help":
    print(usage, terminator: "")
    return 0
  case "--version":
    print("sociallogin \(SDKVersion.current)")
    return 0
  case "demo":
    let rest = Array(arguments.dropFirst())
    return runBlocking { await DemoCommand.run(arguments: rest) }
  case "emulator":
    let rest = Array(arguments.dropFirst())
    return runBlocking { await EmulatorCommand.run(arguments: rest) }
  case "login":
    return runLoginCommand(Array(arguments.dropFirst()))
  case "jws", "jwt":
    return runJOSECommand(first, Array(arguments.dropFirst()))
  default:
    writeError("sociallogin: unknown command '\(first)'. See 'sociallogin --help'.\n")
    return 2
  }
}

func writeError(_ text: String) {
  FileHandle.standardError.write(Data(text.utf8))
}
