import Foundation

extension SpawnedChild {
  /// Runs `executable` to its end on the calling thread (it blocks: call it from a thread of
  /// its own, never the cooperative pool), with `input` on its stdin; `output` is its stdout,
  /// and its stderr too unless `keepingErrors` is `false` (then stderr is dropped). SIGINT after
  /// `deadline` seconds, SIGKILL 10 s later.
  ///
  /// The files go through a private temporary directory rather than pipes, so nothing but
  /// the child's three descriptors is shared with it (see ``SpawnedChild``).
  ///
  /// - Throws: ``CLIProcessError`` when the files cannot be made or the spawn fails.
  public static func run(
    _ executable: URL, arguments: [String],
    environment: [String: String] = ["PATH": "/usr/bin:/bin"],
    input: Data = Data(), keepingErrors: Bool = true, deadline: TimeInterval = 60
  ) throws -> (status: Int32, output: Data) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "spawn-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw CLIProcessError("cannot make \(directory.path): \(error)")
    }
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputFile = directory.appendingPathComponent("in")
    let outputFile = directory.appendingPathComponent("out")
    do {
      try input.write(to: inputFile)
      _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
      let stdin = try FileHandle(forReadingFrom: inputFile)
      let stdout = try FileHandle(forWritingTo: outputFile)
      let stderr = keepingErrors ? stdout : try FileHandle(forWritingAtPath: "/dev/null").orThrow()
      let child: SpawnedChild
      do {
        defer {
          try? stdin.close()
          try? stdout.close()
          try? stderr.close()
        }
        child = try SpawnedChild(
          executable, arguments: arguments, environment: environment, stdin: stdin,
          stdout: stdout, stderr: stderr)
      }
      let status = child.wait(deadline: deadline)
      return (status, try Data(contentsOf: outputFile))
    } catch let error as CLIProcessError {
      throw error
    } catch {
      throw CLIProcessError("cannot run \(executable.path): \(error)")
    }
  }
}

extension Optional where Wrapped == FileHandle {
  /// The handle, or an error naming what could not be opened.
  fileprivate func orThrow() throws -> FileHandle {
    guard let self else { throw CLIProcessError("cannot open /dev/null") }
    return self
  }
}
