import Foundation
import SocialLogin
import Testing

@testable import SocialLoginCLI

/// When `login --device` draws its QR code, and of what.
@Suite struct LoginDeviceQRTests {
  static func prompt(_ uri: String, complete: String? = nil) throws -> DeviceLoginPrompt {
    DeviceLoginPrompt(
      provider: .facebook,
      authorization: DeviceAuthorization(
        deviceCode: "dc", userCode: "ABCD-EFGH", verificationURI: try #require(URL(string: uri)),
        verificationURIComplete: complete.flatMap(URL.init(string:)), expiresIn: 600,
        issuedAt: Date(timeIntervalSince1970: 0)))
  }

  @Test func drawnOnATerminalUnlessNoQR() {
    #expect(LoginCommands.drawsQR(ParsedArguments(), stderrIsTerminal: true))
    #expect(!LoginCommands.drawsQR(ParsedArguments(), stderrIsTerminal: false))
    let noQR = ParsedArguments(flags: [LoginCommands.noQR.name])
    #expect(!LoginCommands.drawsQR(noQR, stderrIsTerminal: true))
  }

  @Test func theCompleteURIWhenThereIsOneElseTheVerificationURI() throws {
    let complete = "https://id.example/device?user_code=ABCD-EFGH"
    let both = try Self.prompt("https://id.example/device", complete: complete)
    #expect(LoginCommands.qrText(for: both) == (try QRCode(text: complete)).halfBlocks())
    let plain = try Self.prompt("https://www.facebook.com/device")
    #expect(
      LoginCommands.qrText(for: plain)
        == (try QRCode(text: "https://www.facebook.com/device")).halfBlocks())
  }

  /// An address too long for version 10 gets no QR code (the text instructions remain).
  @Test func anAddressTooLongForTheEncoderGetsNoQRCode() throws {
    let long = "https://id.example/device?pad=" + String(repeating: "x", count: 400)
    #expect(LoginCommands.qrText(for: try Self.prompt(long)) == nil)
    #expect(
      LoginCommands.qrText(for: try Self.prompt("https://id.example/d", complete: long)) == nil)
  }

  @Test func canOpenBrowserFollowsBrowserDisplayAndXdgOpen() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "xdg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let opener = directory.appendingPathComponent("xdg-open")
    try Data("#!/bin/sh\n".utf8).write(to: opener)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
    #expect(LoginCommands.canOpenBrowser(environment: ["BROWSER": "firefox"]))
    #if !os(macOS)
      #expect(!LoginCommands.canOpenBrowser(environment: ["BROWSER": " ", "PATH": directory.path]))
      #expect(
        !LoginCommands.canOpenBrowser(environment: ["DISPLAY": ":0", "PATH": "/nonexistent"]))
      #expect(LoginCommands.canOpenBrowser(environment: ["DISPLAY": ":0", "PATH": directory.path]))
      #expect(
        LoginCommands.canOpenBrowser(environment: ["WAYLAND_DISPLAY": "w", "PATH": directory.path]))
    #endif
  }
}
