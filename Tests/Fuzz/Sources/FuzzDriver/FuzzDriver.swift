@_spi(Fuzzing) import SocialLoginRedis
import SocialLoginTesting

/// What every fuzz executable shares: libFuzzer's input callback and its driver. An executable
/// `fuzz-<name>` fuzzes the entry `<name>` of `FuzzTargets` (or `RedisFuzzTargets` for
/// `resp_reply`); its own `Entry.swift` only names itself.
public enum FuzzDriver {
  /// Every entry, by name.
  static let targets: [FuzzTargets.Target] =
    FuzzTargets.all + [
      FuzzTargets.Target(name: RedisFuzzTargets.name, run: RedisFuzzTargets.respReply),
      FuzzTargets.Target(
        name: RedisStoreFuzzTargets.hintName, run: RedisStoreFuzzTargets.storeHint),
    ]

  /// The entry of this executable, from its name (`fuzz-<name>`).
  static let selected: FuzzTargets.Target? = {
    let executable = CommandLine.arguments.first?.split(separator: "/").last ?? ""
    let name = executable.hasPrefix("fuzz-") ? String(executable.dropFirst(5)) : ""
    return targets.first { $0.name == name }
  }()

  /// Hands control to libFuzzer's driver, fuzzing `name`.
  public static func run(
    _ name: String, _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    guard selected?.name == name else {
      print("fuzz-\(name): no fuzz entry of that name (the executable must be fuzz-\(name))")
      return 2
    }
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzOneInput)
  }
}

/// One input for the executable's entry (libFuzzer's callback).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzDriver.selected?.run(bytes)
  return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
