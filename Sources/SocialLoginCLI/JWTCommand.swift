import Foundation
import SocialLogin

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let joseUsage = """
  USAGE:
    sociallogin jws verify (--jwk FILE | --jwks FILE) [--alg ALG]... TOKEN
    sociallogin jwt verify (--jwk FILE | --jwks FILE | --jwks-url URL | --hs-secret-env NAME)
                           [--alg ALG]... [--iss ISSUER] [--aud AUDIENCE] [--nonce NONCE]
                           [--leeway SECONDS] [--now UNIX_TIME] TOKEN

  'jws verify' checks a compact JWS signature only and prints the payload bytes.
  'jwt verify' checks the signature and the claims (exp is required; iss, aud and nonce when
  given; leeway defaults to 60 s) and prints {"header":…,"claims":…} as JSON.
  TOKEN '-' reads the token from standard input. --alg may repeat (default: every supported
  algorithm; the key's type and 'alg' still pin it). Keys marked for encryption are refused.
  Exit status: 0 verified, 1 rejected (one line on stderr: 'error: <reason>: <message>'),
  2 bad usage.

  """

/// Runs `sociallogin jws|jwt …` and returns the exit status.
func runJOSECommand(_ group: String, _ arguments: [String]) -> Int32 {
  runBlocking { await JOSECommand.run(group: group, arguments) }
}

/// A clock whose wall time is fixed (`--now`); sleeping uses the continuous clock.
private struct FixedWallClock: AuthClock {
  let wallTime: Date
  var now: ContinuousClock.Instant { ContinuousClock.now }
  var minimumResolution: Duration { ContinuousClock().minimumResolution }
  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
  }
}

private struct UsageError: Error {
  var message: String
}

enum JOSECommand {
  private struct Options {
    var jwkFile: String?
    var jwksFile: String?
    var jwksURL: URL?
    var secretVariable: String?
    var algorithms: Set<JWSAlgorithm> = []
    var issuer: String?
    var audience: String?
    var nonce: String?
    var leeway: TimeInterval = 60
    var now: Date?
    var token: String?

    var keySourceCount: Int {
      [jwkFile != nil, jwksFile != nil, jwksURL != nil, secretVariable != nil].filter { $0 }.count
    }
  }

  static func run(group: String, _ arguments: [String]) async -> Int32 {
    if arguments.first.map({ ["-h", "--help", "help"].contains($0) }) ?? false {
      writeOut(joseUsage)
      return 0
    }
    guard arguments.first == "verify" else {
      writeError("sociallogin \(group): expected 'verify'. See 'sociallogin \(group) --help'.\n")
      return 2
    }
    let options: Options
    do {
      options = try parse(Array(arguments.dropFirst()), isJWT: group == "jwt")
    } catch {
      writeError(
        "sociallogin \(group) verify: \(error.message). See 'sociallogin \(group) --help'.\n")
      return 2
    }
    do {
      if group == "jws" {
        try await verifyJWS(options)
      } else {
        try await verifyJWT(options)
      }
      return 0
    } catch let error as UsageError {
      writeError("sociallogin \(group) verify: \(error.message).\n")
      return 2
    } catch let error as AuthError {
      let reason = error.joseError?.reason.rawValue ?? error.code.rawValue
      let message = error.joseError?.message ?? error.message
      writeError("error: \(reason): \(oneLine(message))\n")
      return 1
    } catch {
      writeError("error: failed: \(oneLine(String(describing: error)))\n")
      return 1
    }
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  private static func parse(_ arguments: [String], isJWT: Bool) throws(UsageError) -> Options {
    var options = Options()
    var index = 0
    func value(_ flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--jwk": options.jwkFile = try value(argument)
      case "--jwks": options.jwksFile = try value(argument)
      case "--alg":
        let name = try value(argument)
        guard let algorithm = JWSAlgorithm(rawValue: name) else {
          let known = JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
          throw UsageError(message: "unknown --alg '\(name)' (known: \(known))")
        }
        options.algorithms.insert(algorithm)
      case "--jwks-url" where isJWT:
        let text = try value(argument)
        guard let url = URL(string: text), ["https", "http"].contains(url.scheme ?? "") else {
          throw UsageError(message: "--jwks-url must be an http(s) URL")
        }
        options.jwksURL = url
      case "--hs-secret-env" where isJWT: options.secretVariable = try value(argument)
      case "--iss" where isJWT: options.issuer = try value(argument)
      case "--aud" where isJWT: options.audience = try value(argument)
      case "--nonce" where isJWT: options.nonce = try value(argument)
      case "--leeway" where isJWT:
        guard let seconds = TimeInterval(try value(argument)), seconds >= 0, seconds.isFinite else {
          throw UsageError(message: "--leeway must be a non-negative number of seconds")
        }
        options.leeway = seconds
      case "--now" where isJWT:
        guard let seconds = TimeInterval(try value(argument)), seconds.isFinite else {
          throw UsageError(message: "--now must be a UNIX time in seconds")
        }
        options.now = Date(timeIntervalSince1970: seconds)
      default:
        if argument.hasPrefix("--") {
          throw UsageError(message: "unknown option '\(argument)'")
        }
        guard options.token == nil else { throw UsageError(message: "more than one TOKEN") }
        options.token = argument
      }
      index += 1
    }
    guard options.token != nil else { throw UsageError(message: "missing TOKEN") }
    let sources = isJWT ? "--jwk, --jwks, --jwks-url or --hs-secret-env" : "--jwk or --jwks"
    guard options.keySourceCount == 1 else {
      throw UsageError(message: "give exactly one of \(sources)")
    }
    return options
  }

  private static func token(_ options: Options) throws -> String {
    guard options.token == "-" else { return options.token ?? "" }
    let data = FileHandle.standardInput.readDataToEndOfFile()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func readFile(_ path: String) throws -> Data {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw AuthError(.configuration, "Cannot read the file '\(path)'.")
    }
    return data
  }

  private static func resolver(_ options: Options) throws -> any JWTKeyResolver {
    if let path = options.jwkFile {
      return StaticKeyResolver(try JWK(parsing: try readFile(path)))
    }
    if let path = options.jwksFile {
      return StaticKeyResolver(try JWKSet(parsing: try readFile(path)))
    }
    if let url = options.jwksURL {
      return JWKSCache(url: url, transport: URLSessionTransport())
    }
    let name = options.secretVariable ?? ""
    guard let secret = ProcessInfo.processInfo.environment[name], !secret.isEmpty else {
      throw UsageError(message: "the environment variable '\(name)' is not set")
    }
    return HMACSecretResolver(secret: Secret(secret), algorithm: .hs256)
  }

  private static func allowed(_ options: Options) -> Set<JWSAlgorithm> {
    if !options.algorithms.isEmpty { return options.algorithms }
    if options.secretVariable != nil { return [.hs256] }
    return Set(JWSAlgorithm.allCases)
  }

  private static func verifyJWS(_ options: Options) async throws {
    let verifier = JWSVerifier(allowedAlgorithms: allowed(options))
    let jws = try await verifier.verify(try token(options), resolver: try resolver(options))
    FileHandle.standardOutput.write(Data(jws.payload))
  }

  private static func verifyJWT(_ options: Options) async throws {
    var policy = JWTClaimsPolicy(
      issuer: options.issuer, audience: options.audience, nonce: options.nonce,
      leeway: options.leeway)
    policy.requiresAuthorizedPartyForMultipleAudiences = options.audience != nil
    let clock: any AuthClock = options.now.map { FixedWallClock(wallTime: $0) } ?? SystemAuthClock()
    let validator = JWTValidator(allowedAlgorithms: allowed(options), policy: policy, clock: clock)
    let jwt = try await validator.validate(try token(options), resolver: try resolver(options))
    let output: JSONValue = ["header": jwt.header, "claims": jwt.claims]
    writeOut(output.jsonText + "\n")
  }

  private static func writeOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
