import CLITestProcess
import Foundation

/// Headless Chromium (Debian's `chromium`, driven over the DevTools protocol by a small Python
/// script with Debian's `python3-websocket`; `.ci/run` installs both): a real browser on the
/// emulator's pages.
enum HeadlessChromium {
  /// The browser, or `nil` when it is not installed.
  static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Whether the DevTools driver can run: `python3` with the `websocket` module.
  static let driverAvailable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return false }
    // Spawned, not through Foundation's `Process`, which crashes with many descriptors open.
    let probe = try? SpawnedChild.run(
      URL(fileURLWithPath: "/usr/bin/python3"), arguments: ["-c", "import websocket"],
      keepingErrors: false)
    return probe?.status == 0
  }()

  /// Whether a missing browser must fail the tests (with `CI` set) rather than skip them.
  static let required: Bool = {
    let value = (ProcessInfo.processInfo.environment["CI"] ?? "").lowercased()
    return !["", "0", "false"].contains(value)
  }()

  /// Why tests that need the browser are skipped here.
  static let missing =
    "chromium or python3-websocket is not installed; apt-get install chromium python3-websocket "
    + "(with CI set this fails)"

  /// Opens `url`, types `code` into `#user_code` and presses `#next`, then presses the button
  /// `#button` (`approve` or `deny`), as a person would; returns the text of the page the
  /// browser ends on. Everything within 60 s.
  static func decide(url: URL, code: String, button: String, in directory: URL) async throws
    -> String
  {
    guard let chromium = path else { throw CLIProcessError(missing) }
    let script = directory.appendingPathComponent("devtools-\(UUID().uuidString).py")
    let output = directory.appendingPathComponent("devtools-\(UUID().uuidString).out")
    try Data(driver.utf8).write(to: script)
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: script)
      try? FileManager.default.removeItem(at: output)
    }
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
      Thread {
        do {
          let out = try FileHandle(forWritingTo: output)
          let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/null"))
          let child: SpawnedChild
          do {
            defer {
              try? out.close()
              try? input.close()
            }
            child = try SpawnedChild(
              URL(fileURLWithPath: "/usr/bin/python3"),
              arguments: [script.path, chromium, url.absoluteString, code, button],
              environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path], stdin: input,
              stdout: out, stderr: out)
          }
          continuation.resume(returning: child.wait(deadline: 90))
        } catch {
          continuation.resume(throwing: error)
        }
      }.start()
    }
    let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
    guard status == 0 else { throw CLIProcessError("chromium driver exited \(status): \(text)") }
    return text
  }

  /// The DevTools driver: starts Chromium headless with its own profile, and acts on the page.
  static let driver = #"""
    import json, os, subprocess, sys, tempfile, time, urllib.request
    import websocket

    chromium, url, code, button = sys.argv[1:5]
    deadline = time.time() + 60
    # Chromium's helper processes can still be writing the profile as the browser is killed.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        browser = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--user-data-dir=" + profile,
             "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            port_file = os.path.join(profile, "DevToolsActivePort")
            port = ""
            while not port:
                if time.time() > deadline:
                    sys.exit("chromium wrote no DevTools port")
                if os.path.exists(port_file):
                    port = open(port_file).read().split("\n")[0].strip()
                time.sleep(0.05)
            targets = []
            while not [t for t in targets if t.get("type") == "page"]:
                if time.time() > deadline:
                    sys.exit("chromium has no page")
                try:
                    targets = json.load(urllib.request.urlopen(
                        "http://127.0.0.1:%s/json/list" % port, timeout=10))
                except OSError:
                    time.sleep(0.05)
            page = [t for t in targets if t.get("type") == "page"][0]
            ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
            counter = [0]

            def call(method, **params):
                counter[0] += 1
                ws.send(json.dumps({"id": counter[0], "method": method, "params": params}))
                while True:
                    message = json.loads(ws.recv())
                    if message.get("id") == counter[0]:
                        return message.get("result", {})

            def value(expression):
                result = call("Runtime.evaluate", expression=expression, returnByValue=True)
                return result.get("result", {}).get("value")

            def wait_for(expression):
                while time.time() < deadline:
                    if value(expression):
                        return
                    time.sleep(0.05)
                sys.exit("timed out waiting for: " + expression + "; page: "
                         + str(value("document.body ? document.body.innerText : ''")))

            def ready(element):
                return ("document.readyState === 'complete' && !!document.getElementById('%s')"
                        % element)

            call("Page.navigate", url=url)
            wait_for(ready("user_code"))
            value("document.getElementById('user_code').value = %s" % json.dumps(code))
            value("document.getElementById('next').click()")
            wait_for(ready(button))
            value("document.getElementById('%s').click()" % button)
            wait_for("document.readyState === 'complete' && !document.getElementById('%s')"
                     % button)
            print(value("document.body.innerText"))
        finally:
            browser.kill()
            browser.wait()
    """#
}
