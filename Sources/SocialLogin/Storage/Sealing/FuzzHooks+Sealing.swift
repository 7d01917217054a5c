import SocialLoginCrypto

extension FuzzHooks {
  /// The fixed ring the `sealed_open` fuzzer opens with: key `a` seals, key `b` only opens.
  /// The secrets are public test values (`0x5A…`, `0xB0…`), which the seed corpus uses too.
  private static let fuzzRing: SealingKeyRing? = {
    guard let a = try? SealingKey(id: "a", secret: [UInt8](repeating: 0x5A, count: 32)),
      let b = try? SealingKey(id: "b", secret: [UInt8](repeating: 0xB0, count: 32))
    else { return nil }
    return try? SealingKeyRing(sealingKey: a, openingAlso: [b])
  }()

  /// `SealingKeyRing.open` and `RecordSealing.unsealed.open` on a stored value: the first
  /// byte is the context's length, then the context, then the value. Also seals the value
  /// and checks that it opens back to itself under the same context and under no other.
  package static func sealedOpen(_ bytes: [UInt8]) {
    guard let ring = fuzzRing else { return }
    let contextLength = min(Int(bytes.first ?? 0), max(0, bytes.count - 1))
    let context = Array(bytes.dropFirst().prefix(contextLength))
    let value = Array(bytes.dropFirst(1 + contextLength))
    if let opened = try? ring.open(value, context: context) {
      precondition(opened.needsReseal == (opened.keyID != "a"), "needsReseal mismatch")
    }
    _ = try? RecordSealing.unsealed.open(value, context: context)
    _ = SealingKeyRing.isSealed(value)
    let sealed = ring.seal(value, context: context)
    precondition((try? ring.open(sealed, context: context))?.bytes == value, "round trip failed")
    precondition((try? ring.open(sealed, context: context + [0])) == nil, "context not bound")
  }
}
