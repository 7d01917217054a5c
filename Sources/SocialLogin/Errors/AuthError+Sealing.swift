extension AuthError {
  /// The store error for a record that could not be opened, or a key ring that could not be
  /// set up, so callers handle sealing failures like every other store failure.
  ///
  /// `.sealedWithUnknownKey` becomes ``Code/storageSealedWithUnknownKey``, `.tampered` and
  /// `.notSealed` become ``Code/storageTampered`` (neither is transient: the record stays as
  /// it is on disk or in Redis, and is not served), and key or key-file errors become
  /// ``Code/configuration``. The message names the location and never key material.
  ///
  /// - Parameters:
  ///   - error: The sealing failure (kept as ``underlying``).
  ///   - location: Where the record is: a file path or a store key.
  ///   - provider: The provider of the session involved, when known.
  public init(sealing error: SealingError, location: String, provider: ProviderID? = nil) {
    let code: Code
    let message: String
    switch error.kind {
    case .sealedWithUnknownKey:
      code = .storageSealedWithUnknownKey
      message =
        "Session store: \(location) cannot be opened: \(error.message) It was left untouched; "
        + "add the key to the key file to read it."
    case .tampered, .notSealed:
      code = .storageTampered
      message =
        "Session store: \(location) cannot be opened: \(error.message) It was left untouched "
        + "and is not used."
    case .invalidKey, .invalidKeyFile:
      code = .configuration
      message = "Sealing keys for \(location): \(error.message)"
    }
    self.init(code, message, provider: provider, underlying: error)
  }
}
