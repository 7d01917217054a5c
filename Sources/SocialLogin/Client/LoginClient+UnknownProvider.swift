extension LoginClient {
  /// The ``AuthError/Code/unknownProvider`` error for `id`: it lists the ids that are
  /// registered, so a typo (`lime` for `line`) or a provider left out of the client's list is
  /// plain from the message alone.
  static func unknownProvider(
    _ id: ProviderID, registered: some Sequence<ProviderID>
  ) -> AuthError {
    let known = registered.map { "'\($0)'" }.sorted()
    let list = known.isEmpty ? "none is registered" : "registered: \(known.joined(separator: ", "))"
    return AuthError(
      .unknownProvider, "No provider is registered as '\(id)' (\(list)).", provider: id)
  }
}
