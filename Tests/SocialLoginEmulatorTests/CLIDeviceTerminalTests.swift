import CLITestProcess
import Foundation
import SocialLogin
import SocialLoginEmulator
import Testing

/// `sociallogin login oidc --device` on a terminal: the built binary runs under `script`
/// (util-linux, essential on Debian), which gives it a pseudo-terminal, so stderr is a TTY and
/// the QR code is drawn; `--no-qr` leaves it out.
@Suite(
  .oneCLIAtATime,
  .needsCLIBinary,
  .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")),
  .timeLimit(.minutes(5)))
struct CLIDeviceTerminalTests {
  /// Runs `login oidc --device` (plus `extra`) under `script`, approves the code it shows, and
  /// returns everything the terminal got.
  func terminalOutput(_ extra: [String]) async throws -> (status: Int32, text: String) {
    // The emulator runs in this test process, whose threads a full run's other suites keep
    // busy: once in several CI runs the CLI's discovery request to it got no answer within
    // the CLI's 15 s, and the CLI ended before showing a code. That is the harness starving,
    // not the CLI: one more try, and a second starvation fails the test.
    do {
      return try await terminalOutputOnce(extra)
    } catch is EmulatorStarved {
      return try await terminalOutputOnce(extra)
    }
  }

  /// The CLI ended on a timed-out request to the in-process emulator before showing a code.
  struct EmulatorStarved: Error {}

  func terminalOutputOnce(_ extra: [String]) async throws -> (status: Int32, text: String) {
    let home = try CLIProcess.makeHome("cli-device-tty")
    defer { try? FileManager.default.removeItem(at: home) }
    let binary = try #require(CLIProcess.executable)
    return try await ProviderEmulator.run { emulator in
      let words =
        [binary.path, "login", "oidc", "--emulator", emulator.host.description, "--device"]
        + extra
      let command = words.map { "'\($0)'" }.joined(separator: " ")
      let output = home.appendingPathComponent("terminal")
      _ = FileManager.default.createFile(atPath: output.path, contents: nil)
      var environment = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("SOCIALLOGIN_")
      }
      environment["XDG_CONFIG_HOME"] = home.path
      environment["DISPLAY"] = nil
      environment["WAYLAND_DISPLAY"] = nil
      let terminal = try FileHandle(forWritingTo: output)
      let nothing = try FileHandle(forUpdating: URL(fileURLWithPath: "/dev/null"))
      let process: SpawnedChild
      do {
        defer {
          try? terminal.close()
          try? nothing.close()
        }
        // posix_spawn, not Foundation's Process (it crashes with many descriptors open).
        process = try SpawnedChild(
          URL(fileURLWithPath: "/usr/bin/script"), arguments: ["-qfec", command, "/dev/null"],
          environment: environment, stdin: nothing, stdout: terminal, stderr: nothing)
      }
      defer { if process.isRunning { process.terminate() } }
      func text() -> String {
        String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
      }
      // Wait (60 s at most) for the instructions, then approve as the person with the phone.
      let marker = "enter the code: "
      let deadline = ContinuousClock.now + .seconds(60)
      var code: String?
      while code == nil, ContinuousClock.now < deadline, process.isRunning {
        // The expiry line comes after the code's line: that one is complete.
        let shown = text()
        if shown.contains("The code expires at"),
          let line = shown.split(whereSeparator: \.isNewline).first(where: {
            $0.contains(marker)
          }), let range = line.range(of: marker)
        {
          code = String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        } else {
          try await Task.sleep(for: .milliseconds(20))
        }
      }
      if code == nil, !process.isRunning, text().contains("no complete response within") {
        throw EmulatorStarved()
      }
      let userCode = try #require(code, "no user code on the terminal: \(text())")
      #expect(
        try await CLIDeviceTests.decide(emulator, "approve", userCode) == 200, "\(userCode)")
      let status: Int32 = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: process.wait(deadline: 60)) }.start()
      }
      return (status, text())
    }
  }

  @Test func aTerminalGetsAQRCodeOfTheCompleteAddress() async throws {
    let (status, text) = try await terminalOutput([])
    #expect(status == 0, "\(text)")
    #expect(text.contains("█"), "\(text)")
    #expect(text.contains("▀") || text.contains("▄"))
  }

  @Test func noQRLeavesItOut() async throws {
    let (status, text) = try await terminalOutput(["--no-qr"])
    #expect(status == 0, "\(text)")
    #expect(!text.contains("█"), "\(text)")
  }
}
