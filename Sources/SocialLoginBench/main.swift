import Dispatch
import Foundation

// A synchronous main that waits on a semaphore while a detached task runs the async work:
// valgrind cannot run binaries with an async main (see the README's benchmark section).
let arguments = Array(CommandLine.arguments.dropFirst())
/// Runs `body` on a detached task, waits for it on this thread, and exits with its status.
func runAndExit(_ body: @escaping @Sendable () async -> Int32) -> Never {
  let done = DispatchSemaphore(value: 0)
  let status = ResultBox.Status()
  Task.detached {
    status.set(await body())
    done.signal()
  }
  done.wait()
  exit(status.get())
}

/// The child processes the benches and tests start, by their first argument.
let workers: [String: @Sendable ([String]) async -> Int32] = [
  "replicas-worker": { await ReplicasWorker.run($0) },
  "replicas-follower": { await FollowerWorker.run($0) },
  "crash-worker": { await CrashWorker.run($0) },
  "chaos-worker": { await ChaosWorker.run($0) },
  "events-worker": { await EventsWorker.run($0) },
]
if let first = arguments.first, let worker = workers[first] {
  let rest = Array(arguments.dropFirst())
  runAndExit { await worker(rest) }
}
if arguments.first == "chaos" {
  let chaosFigures = ResultBox()
  let rest = Array(arguments.dropFirst())
  runAndExit {
    chaosFigures.append(await ChaosBench.run(rest))
    for figure in chaosFigures.figureList { print(figure.line) }
    return chaosFigures.figureList.first?.name == "chaos" ? 0 : 1
  }
}
let options = BenchOptions(arguments)
guard let options else {
  FileHandle.standardError.write(Data(BenchOptions.usage.utf8))
  exit(2)
}

let done = DispatchSemaphore(value: 0)
let collected = ResultBox()
Task.detached {
  for suite in options.suites {
    let figures = await suite.run()
    collected.append(figures)
    if !options.json {
      for figure in figures { print(figure.line) }
      fflush(nil)
    }
  }
  done.signal()
}
done.wait()
if options.json { print(collected.json) }
