/// A small, strict HTTP/1.1 server that binds to the loopback interface only.
///
/// It exists for RFC 8252 loopback redirects and for the provider emulator, never for serving
/// traffic from other machines.
public enum LoopbackHTTP {
  /// The version of the loopback server's wire behaviour.
  public static let version = "0.1.0"
}
