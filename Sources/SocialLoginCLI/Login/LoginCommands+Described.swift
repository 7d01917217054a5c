import Foundation
import SocialLogin

/// `sociallogin login kakao|naver|yahoo-japan|github|microsoft` and `login custom
/// --provider-file PATH`: every provider written as a ``ProviderDescription`` gets the same
/// command, built from its description.
extension LoginCommands {
  /// One command per built-in description, in ``ProviderDescription/builtIn``'s order.
  static var describedCommands: [Command] {
    ProviderDescription.builtIn.map { command(forDescribed: $0) }
  }

  /// `--provider-file PATH`: a description in JSON.
  static let providerFile = Option.value(
    "--provider-file", "PATH",
    help: "a provider description (JSON, see the 'Describing a provider' article)")
  /// `--parameter NAME=VALUE`, repeatable: a description's parameters.
  static let parameter = Option.repeated(
    "--parameter", "NAME=VALUE", help: "a setting the description names (such as tenant)")

  /// `--app-id ID`: the provider's own id of the app (Kakao's numeric app id), which proves
  /// that an access token an app sends was issued to this app.
  static let describedAppID = Option.value(
    "--app-id", "ID",
    help: "the provider's id of the app (Kakao: the app ID), to prove access tokens are this app's")

  /// The option of one of a description's parameters: `--tenant T`.
  static func parameterOption(_ name: String) -> Option {
    .value("--\(name)", name.uppercased(), help: "the provider's \(name)")
  }

  /// The login command of a built-in description.
  static func command(forDescribed description: ProviderDescription) -> Command {
    let kind = ProviderKind.described(description)
    let options =
      clientOptions(kind) + description.parameters.map(parameterOption) + flowOptions + [endpoint]
    return Command(
      name: kind.rawValue, summary: "Sign in with \(description.displayName).",
      discussion: """
        The client comes from --client-id and --client-secret-env, else from \
        $\(kind.clientIDVariable) and $\(kind.clientSecretVariable), else from the last \
        login with this provider; with an emulator and no client id, the emulator's default \
        app is used.

        Endpoint names: \(description.endpointNames.joined(separator: ", ")).
        """,
      options: options, run: { try await run(kind, $0) })
  }

  /// `login custom --provider-file PATH`.
  static let custom = Command(
    name: "custom", summary: "Sign in with a provider described in a JSON file.",
    discussion: """
      The description (--provider-file) says where every request goes; the session remembers \
      the description itself, so 'token' and 'logout' keep sending its tokens where it was \
      made, whatever happens to the file later. Its id must not be one of the built-in \
      providers'. The client secret comes from --client-secret-env or \
      $SOCIALLOGIN_<ID>_CLIENT_SECRET.
      """,
    options: [
      providerFile,
      .value("--client-id", "ID", help: "the client id (default: $SOCIALLOGIN_<ID>_CLIENT_ID)"),
      .value(
        "--client-secret-env", "NAME",
        help: "read the client secret from environment variable NAME "
          + "(default: $SOCIALLOGIN_<ID>_CLIENT_SECRET when set)"),
      parameter,
    ] + flowOptions + [endpoint],
    run: { invocation in
      let description = try DescribedLogin.readProviderFile(invocation)
      return try await run(.described(description), invocation, providerFile: description)
    })
}

/// The parts of a login's profile only described providers have.
enum DescribedLogin {
  /// The largest description file read.
  static let maximumFileSize = 64 * 1024

  /// The description of `--provider-file`, checked.
  ///
  /// - Throws: ``UsageError`` for a missing, unreadable, oversized or malformed file, or a
  ///   description whose id is a built-in provider's.
  static func readProviderFile(_ invocation: Invocation) throws -> ProviderDescription {
    guard let path = invocation.arguments.value(LoginCommands.providerFile) else {
      throw UsageError("--provider-file PATH is required")
    }
    return try readProviderFile(path: path)
  }

  /// The description in the file at `path`, checked as ``readProviderFile(_:)`` checks it.
  static func readProviderFile(path: String) throws -> ProviderDescription {
    let url = URL(fileURLWithPath: path)
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
    } catch {
      throw UsageError("cannot read the provider description '\(path)'")
    }
    guard data.count <= maximumFileSize else {
      throw UsageError("the provider description '\(path)' is over \(maximumFileSize) bytes")
    }
    let description: ProviderDescription
    do {
      description = try JSONDecoder().decode(ProviderDescription.self, from: data)
    } catch {
      throw UsageError(
        "the provider description '\(path)' is not valid: \(DescribedLogin.reason(error))")
    }
    let kind = ProviderKind.described(description)
    guard !ProviderKind.allCases.contains(kind) else {
      throw UsageError(
        "the provider description '\(path)' has the id '\(kind.rawValue)' of a built-in "
          + "provider; give it its own id")
    }
    do {
      try description.validate()
    } catch {
      throw UsageError("the provider description '\(path)' is not valid: " + error.message)
    }
    return description
  }

  /// A short reason for a decoding failure, naming the field.
  static func reason(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "not JSON" }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing '\(path(context.codingPath + [key]))'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "wrong type at '\(path(context.codingPath))'"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "not JSON" : "bad value at '\(path(context.codingPath))'"
    @unknown default:
      return "not a description"
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
  }

  /// Writes the described parts of a login's flags into `profile`: the parameters
  /// (`--tenant`, `--parameter NAME=VALUE`), checked against the profile's description (the
  /// one `login custom` read, or the built-in one).
  static func apply(
    _ kind: ProviderKind, _ invocation: Invocation, to profile: inout SessionProfile
  ) throws {
    let arguments = invocation.arguments
    guard let description = profile.providerDescription ?? kind.builtInDescription else {
      return
    }
    if let id = arguments.value(LoginCommands.describedAppID) { profile.appID = id }
    var parameters = profile.parameters ?? [:]
    for name in description.parameters {
      if let value = arguments.value(LoginCommands.parameterOption(name)) {
        parameters[name] = value
      }
    }
    for text in arguments.all(LoginCommands.parameter) {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, description.parameters.contains(parts[0]) else {
        throw UsageError(
          "--parameter \(text): \(description.displayName) takes "
            + (description.parameters.isEmpty
              ? "no parameters" : description.parameters.joined(separator: ", ")))
      }
      parameters[parts[0]] = parts[1]
    }
    profile.parameters = parameters.isEmpty ? nil : parameters
  }
}
