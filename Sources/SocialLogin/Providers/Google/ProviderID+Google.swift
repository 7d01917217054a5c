extension ProviderID {
  /// Google (OpenID Connect at `accounts.google.com`), see ``GoogleProvider``.
  public static let google = ProviderID(rawValue: "google")
}
