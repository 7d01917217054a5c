import Dispatch
import Foundation

// A synchronous main that waits on a semaphore while a detached task runs the async work:
// valgrind cannot run binaries with an async main (see the README's benchmark section).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "replicas-worker" {
  let workerDone = DispatchSemaphore(value: 0)
  let status = ResultBox.Status()
  Task.detached {
    status.set(await ReplicasWorker.run(Array(arguments.dropFirst())))
    workerDone.signal()
  }
  workerDone.wait()
  exit(status.get())
}
if arguments.first == "replicas-follower" {
  let followerDone = DispatchSemaphore(value: 0)
  let status = ResultBox.Status()
  Task.detached {
    status.set(await FollowerWorker.run(Array(arguments.dropFirst())))
    followerDone.signal()
  }
  followerDone.wait()
  exit(status.get())
}
if arguments.first == "chaos-worker" {
  let workerDone = DispatchSemaphore(value: 0)
  let status = ResultBox.Status()
  Task.detached {
    status.set(await ChaosWorker.run(Array(arguments.dropFirst())))
    workerDone.signal()
  }
  workerDone.wait()
  exit(status.get())
}
if arguments.first == "chaos" {
  let chaosDone = DispatchSemaphore(value: 0)
  let chaosFigures = ResultBox()
  Task.detached {
    chaosFigures.append(await ChaosBench.run(Array(arguments.dropFirst())))
    chaosDone.signal()
  }
  chaosDone.wait()
  for figure in chaosFigures.figureList { print(figure.line) }
  exit(chaosFigures.figureList.first?.name == "chaos" ? 0 : 1)
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
