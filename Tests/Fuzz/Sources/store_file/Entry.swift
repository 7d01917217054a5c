import SocialLoginTesting

/// libFuzzer's entry point: one input for `FuzzTargets`' `store_file` parser.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTargets.target(named: "store_file")?.run(bytes)
  return 0
}
