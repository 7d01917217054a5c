import Foundation
import SocialLogin

/// A browser login on a machine that cannot open a browser (SSH, a container): say so at
/// once, and point to `--device` for providers that have a device login, rather than leave
/// the user waiting for a browser that never starts.
extension LoginCommands {
  /// Whether this process can open a browser the way `LoopbackUserAgent.systemBrowser` does:
  /// `$BROWSER` set, or macOS's `open`, or on other systems a desktop (`DISPLAY` or
  /// `WAYLAND_DISPLAY`) with `xdg-open` on `PATH`.
  static func canOpenBrowser(environment: [String: String]) -> Bool {
    if !(environment["BROWSER"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
      return true
    }
    #if os(macOS)
      return true
    #else
      let hasDisplay = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains {
        !($0 ?? "").isEmpty
      }
      let path = (environment["PATH"] ?? "").split(separator: ":")
      let hasOpener = path.contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/xdg-open")
      }
      return hasDisplay && hasOpener
    #endif
  }

  /// The notice for a login that cannot open a browser, suggesting `--device` when
  /// `provider` has a device login.
  static func noBrowserNotice(for provider: any LoginProvider) -> String {
    var text =
      "No browser can be opened here (no $BROWSER, and no desktop with xdg-open): open the "
      + "URL above in a browser on this machine"
    if provider is any DeviceLoginProvider {
      let onlyIf =
        provider is OIDCProvider
        ? " (when the issuer offers a device login)"
        : provider is FacebookProvider ? " --client-token T (the app's client token)" : ""
      text += ", or sign in without a browser: run the same command with --device\(onlyIf)."
    } else {
      text +=
        ", or run the same command with --no-browser --paste to finish the login from "
        + "another device's browser."
    }
    return text + "\n"
  }

  /// The opener for a machine without a browser: the URL, then ``noBrowserNotice(for:)``.
  static func noBrowserOpener(for provider: any LoginProvider) -> BrowserOpener {
    let notice = noBrowserNotice(for: provider)
    return { url in
      Console.error("Open this URL to sign in: \(url.absoluteString)\n")
      Console.error(notice)
    }
  }
}
