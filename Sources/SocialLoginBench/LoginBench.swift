enum LoginBench {
  static func run() async -> [Figure] { [] }
}
