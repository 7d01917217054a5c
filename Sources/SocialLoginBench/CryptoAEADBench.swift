// Cost of sealing and opening a session-record-sized buffer (1 KiB) with the pure-Swift AEADs,
// in nanoseconds per operation: the price a sealed store pays per write and per read. Compare
// with `openssl speed -evp chacha20-poly1305 -bytes 1024` (assembly, so several times faster).

import SocialLoginCrypto

/// Written by `blackHole` so the optimizer cannot prove benchmarked results unused.
nonisolated(unsafe) private var aeadSink: UInt8 = 0

@inline(never)
private func blackHole(_ bytes: [UInt8]) {
  aeadSink &+= bytes.first ?? 0
}

/// Runs the AEAD benchmarks and returns one row per measurement (ns per operation).
///
/// An operation takes about 3 µs, so each figure is the best of 400 batches of 0.3 ms rather
/// than 40 of 25 ms: on a shared machine a 25 ms batch is rarely left alone by the scheduler,
/// while most 0.3 ms batches are.
func runAEADBench() -> [(name: String, value: Double, unit: String)] {
  let record = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 31) }
  let key = [UInt8](repeating: 0x4B, count: 32)
  let nonce = [UInt8](repeating: 0x07, count: 12)
  let extendedNonce = [UInt8](repeating: 0x07, count: 24)
  let header = Array("SLs1\u{1}a".utf8)
  guard
    let sealed = try? ChaCha20Poly1305.seal(record, key: key, nonce: nonce, authenticating: header),
    (try? ChaCha20Poly1305.open(sealed, key: key, nonce: nonce, authenticating: header)) == record
  else { return [("chacha20_poly1305_1KiB", -1, "error: does not round-trip")] }

  let seal = iterationsPerSecond(batches: 400, batchDuration: .microseconds(300)) {
    blackHole(
      (try? ChaCha20Poly1305.seal(record, key: key, nonce: nonce, authenticating: header)) ?? [])
  }
  let open = iterationsPerSecond(batches: 400, batchDuration: .microseconds(300)) {
    blackHole(
      (try? ChaCha20Poly1305.open(sealed, key: key, nonce: nonce, authenticating: header)) ?? [])
  }
  let sealOpen = iterationsPerSecond(batches: 400, batchDuration: .microseconds(300)) {
    let sealed =
      (try? ChaCha20Poly1305.seal(record, key: key, nonce: nonce, authenticating: header)) ?? []
    blackHole(
      (try? ChaCha20Poly1305.open(sealed, key: key, nonce: nonce, authenticating: header)) ?? [])
  }
  let extendedSealOpen = iterationsPerSecond(batches: 400, batchDuration: .microseconds(300)) {
    let sealed =
      (try? XChaCha20Poly1305.seal(record, key: key, nonce: extendedNonce, authenticating: header))
      ?? []
    blackHole(
      (try? XChaCha20Poly1305.open(sealed, key: key, nonce: extendedNonce, authenticating: header))
        ?? [])
  }
  return [
    ("chacha20_poly1305_seal_1KiB", 1e9 / seal, "ns/op"),
    ("chacha20_poly1305_open_1KiB", 1e9 / open, "ns/op"),
    ("chacha20_poly1305_seal_open_1KiB", 1e9 / sealOpen, "ns/op"),
    ("xchacha20_poly1305_seal_open_1KiB", 1e9 / extendedSealOpen, "ns/op"),
  ]
}
