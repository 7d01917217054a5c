import FuzzDriver

/// The executable's entry: SwiftPM links executables with `main` renamed to
/// `<module>_main`, so this hands control to libFuzzer's driver (see `FuzzDriver`).
@_cdecl("fuzz_described_answer_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{ FuzzDriver.run("described_answer", argc, argv) }
