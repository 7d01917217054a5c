extension ProviderDescription {
  /// Every provider the SDK ships as a description, in the order the CLI and the emulator
  /// list them. Adding a provider adds one line here.
  public static let builtIn: [ProviderDescription] = [
    .kakao,
    .naver,
    .yahooJapan,
    .github,
    .microsoft,
  ]

  /// The built-in description of `id`, if there is one.
  public static func builtIn(_ id: ProviderID) -> ProviderDescription? {
    builtIn.first { $0.id == id }
  }
}
