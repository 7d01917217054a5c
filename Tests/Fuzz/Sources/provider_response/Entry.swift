import SocialLoginTesting

/// One input for `FuzzTargets`' `provider_response` parser (libFuzzer's callback).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTargets.target(named: "provider_response")?.run(bytes)
  return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The executable's entry: SwiftPM links executables with `main` renamed to
/// `<module>_main`, so this hands control to libFuzzer's driver.
@_cdecl("fuzz_provider_response_main")
public func fuzzMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments, fuzzOneInput)
}
