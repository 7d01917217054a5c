enum CryptoBench {
  static func run() async -> [Figure] { [] }
}
