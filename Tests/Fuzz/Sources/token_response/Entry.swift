import SocialLoginTesting

/// libFuzzer's entry point: one input for `FuzzTargets`' `token_response` parser.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTargets.target(named: "token_response")?.run(bytes)
  return 0
}
