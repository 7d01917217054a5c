/// Why a string was rejected by ``Base64URL/decode(_:)``.
public enum Base64URLError: Error, Equatable, Sendable {
  /// The byte at this UTF-8 offset is not in the base64url alphabet (`A-Z a-z 0-9 - _`).
  ///
  /// Padding (`=`), the standard alphabet's `+` and `/`, and whitespace all land here.
  case invalidCharacter(offset: Int)
  /// The length leaves a single character after the last full 4-character group, which cannot
  /// encode a whole byte.
  case invalidLength
  /// The last character carries set bits beyond the encoded bytes, so the string is not the
  /// unique encoding of its value and could be a tampered copy of a canonical one.
  case nonCanonicalTrailingBits
}

/// Unpadded base64url (RFC 4648 §5) exactly as JOSE requires it (RFC 7515 §2, Appendix C).
///
/// Decoding is strict: every input maps to at most one byte string and every byte string has
/// exactly one accepted encoding. Lenient decoders let attackers produce several distinct
/// JWT strings for one signature, which defeats replay caches and token blocklists.
///
/// ```swift
/// let segment = Base64URL.encode(Array(#"{"alg":"HS256"}"#.utf8))  // "eyJhbGciOiJIUzI1NiJ9"
/// let bytes = try Base64URL.decode(segment)
/// ```
public enum Base64URL {
  /// Encodes `data` as base64url without padding.
  ///
  /// - Parameter data: The bytes to encode.
  /// - Returns: `ceil(data.count * 4 / 3)` ASCII characters.
  public static func encode<D: Collection<UInt8>>(_ data: D) -> String {
    base64Encode(data, alphabet: urlAlphabet, padded: false)
  }

  /// Decodes unpadded base64url, rejecting anything that is not the canonical encoding.
  ///
  /// Errors are reported in input order: an invalid character wins over a bad length.
  ///
  /// - Parameter string: The encoded text, e.g. one JWT segment.
  /// - Returns: The decoded bytes.
  /// - Throws: ``Base64URLError`` describing the first problem found.
  public static func decode(_ string: some StringProtocol) throws(Base64URLError) -> [UInt8] {
    let utf8 = string.utf8
    let contiguous = utf8.withContiguousStorageIfAvailable { decodeStrict($0) }
    if let contiguous {
      return try contiguous.get()
    }
    return try Array(utf8).withUnsafeBufferPointer { decodeStrict($0) }.get()
  }

  private static func decodeStrict(
    _ input: UnsafeBufferPointer<UInt8>
  ) -> Result<[UInt8], Base64URLError> {
    let remainder = input.count % 4
    let capacity = input.count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
    var failure: Base64URLError?
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { output, initializedCount in
      initializedCount = 0
      var written = 0
      var index = 0
      let fullGroupsEnd = input.count - remainder
      while index < fullGroupsEnd {
        let s0 = urlSextet(input[index])
        let s1 = urlSextet(input[index + 1])
        let s2 = urlSextet(input[index + 2])
        let s3 = urlSextet(input[index + 3])
        // Invalid characters map to 0xFF, so one OR detects any of the four.
        if (s0 | s1 | s2 | s3) & 0xC0 != 0 {
          failure = .invalidCharacter(offset: firstInvalidOffset(input, from: index))
          return
        }
        output[written] = s0 << 2 | s1 >> 4
        output[written + 1] = s1 << 4 | s2 >> 2
        output[written + 2] = s2 << 6 | s3
        written += 3
        index += 4
      }
      if remainder == 0 {
        initializedCount = written
        return
      }
      var tail: (UInt8, UInt8, UInt8) = (0, 0, 0)
      for offset in 0..<remainder {
        let sextet = urlSextet(input[index + offset])
        if sextet == invalidSextet {
          failure = .invalidCharacter(offset: index + offset)
          return
        }
        switch offset {
        case 0: tail.0 = sextet
        case 1: tail.1 = sextet
        default: tail.2 = sextet
        }
      }
      switch remainder {
      case 2:
        guard tail.1 & 0x0F == 0 else {
          failure = .nonCanonicalTrailingBits
          return
        }
        output[written] = tail.0 << 2 | tail.1 >> 4
        written += 1
      case 3:
        guard tail.2 & 0x03 == 0 else {
          failure = .nonCanonicalTrailingBits
          return
        }
        output[written] = tail.0 << 2 | tail.1 >> 4
        output[written + 1] = tail.1 << 4 | tail.2 >> 2
        written += 2
      default:
        failure = .invalidLength
        return
      }
      initializedCount = written
    }
    if let failure {
      return .failure(failure)
    }
    return .success(bytes)
  }

  private static func firstInvalidOffset(_ input: UnsafeBufferPointer<UInt8>, from start: Int)
    -> Int
  {
    var index = start
    while index < input.count, urlSextet(input[index]) != invalidSextet {
      index += 1
    }
    return index
  }

  @inline(__always)
  private static func urlSextet(_ character: UInt8) -> UInt8 {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): character &- UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): character &- UInt8(ascii: "a") &+ 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character &- UInt8(ascii: "0") &+ 52
    case UInt8(ascii: "-"): 62
    case UInt8(ascii: "_"): 63
    default: invalidSextet
    }
  }
}

/// Standard padded base64 (RFC 4648 §4), for the places that still use it: HTTP Basic
/// credentials, OAuth 1.0a signatures and PEM bodies.
///
/// Never use it for JOSE; use ``Base64URL``.
///
/// ```swift
/// let authorization = "Basic " + Base64.encode(Array("\(clientID):\(clientSecret)".utf8))
/// ```
public enum Base64 {
  /// Encodes `data` as standard base64 with `=` padding.
  ///
  /// - Parameter data: The bytes to encode.
  /// - Returns: `4 * ceil(data.count / 3)` ASCII characters.
  public static func encode<D: Collection<UInt8>>(_ data: D) -> String {
    base64Encode(data, alphabet: standardAlphabet, padded: true)
  }

  /// Decodes standard base64 leniently, for inputs we did not produce and do not authenticate
  /// by their encoding (PEM files, provider metadata).
  ///
  /// ASCII whitespace anywhere is skipped, so PEM bodies can be passed with their line breaks;
  /// padding is optional but, if present, must complete the final 4-character group and end
  /// the input. Unused trailing bits are ignored. Do not use this where the encoded form is
  /// signed or compared; use ``Base64URL/decode(_:)`` there.
  ///
  /// - Parameter string: The encoded text.
  /// - Returns: The decoded bytes, or `nil` if the text is not base64.
  public static func decode(_ string: some StringProtocol) -> [UInt8]? {
    var sextets: [UInt8] = []
    sextets.reserveCapacity(string.utf8.count)
    var paddingCount = 0
    for character in string.utf8 {
      switch character {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        continue
      case UInt8(ascii: "="):
        paddingCount += 1
        continue
      default:
        break
      }
      let sextet = standardSextet(character)
      guard paddingCount == 0, sextet != invalidSextet else { return nil }
      sextets.append(sextet)
    }
    let remainder = sextets.count % 4
    guard remainder != 1 else { return nil }
    if paddingCount > 0 {
      guard remainder != 0, remainder + paddingCount == 4 else { return nil }
    }

    var bytes: [UInt8] = []
    bytes.reserveCapacity(sextets.count / 4 * 3 + 2)
    var index = 0
    while index + 4 <= sextets.count {
      let (s0, s1, s2, s3) = (
        sextets[index], sextets[index + 1], sextets[index + 2], sextets[index + 3]
      )
      bytes.append(s0 << 2 | s1 >> 4)
      bytes.append(s1 << 4 | s2 >> 2)
      bytes.append(s2 << 6 | s3)
      index += 4
    }
    if remainder >= 2 {
      bytes.append(sextets[index] << 2 | sextets[index + 1] >> 4)
    }
    if remainder == 3 {
      bytes.append(sextets[index + 1] << 4 | sextets[index + 2] >> 2)
    }
    return bytes
  }

  private static func standardSextet(_ character: UInt8) -> UInt8 {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): character &- UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): character &- UInt8(ascii: "a") &+ 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character &- UInt8(ascii: "0") &+ 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: invalidSextet
    }
  }
}

private let invalidSextet: UInt8 = 0xFF

private let urlAlphabet: StaticString =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

private let standardAlphabet: StaticString =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

private func base64Encode<D: Collection<UInt8>>(
  _ data: D, alphabet: StaticString, padded: Bool
) -> String {
  if let encoded = data.withContiguousStorageIfAvailable({
    base64Encode($0, alphabet: alphabet, padded: padded)
  }) {
    return encoded
  }
  return Array(data).withUnsafeBufferPointer {
    base64Encode($0, alphabet: alphabet, padded: padded)
  }
}

private func base64Encode(
  _ input: UnsafeBufferPointer<UInt8>, alphabet: StaticString, padded: Bool
) -> String {
  let remainder = input.count % 3
  let tailLength = remainder == 0 ? 0 : (padded ? 4 : remainder + 1)
  let length = input.count / 3 * 4 + tailLength
  return alphabet.withUTF8Buffer { table in
    String(unsafeUninitializedCapacity: length) { output in
      var index = 0
      var written = 0
      while index + 3 <= input.count {
        let (b0, b1, b2) = (input[index], input[index + 1], input[index + 2])
        output[written] = table[Int(b0 >> 2)]
        output[written + 1] = table[Int((b0 & 0x03) << 4 | b1 >> 4)]
        output[written + 2] = table[Int((b1 & 0x0F) << 2 | b2 >> 6)]
        output[written + 3] = table[Int(b2 & 0x3F)]
        index += 3
        written += 4
      }
      if remainder > 0 {
        let b0 = input[index]
        let b1: UInt8 = remainder == 2 ? input[index + 1] : 0
        output[written] = table[Int(b0 >> 2)]
        output[written + 1] = table[Int((b0 & 0x03) << 4 | b1 >> 4)]
        written += 2
        if remainder == 2 {
          output[written] = table[Int((b1 & 0x0F) << 2)]
          written += 1
        }
        if padded {
          while written < length {
            output[written] = UInt8(ascii: "=")
            written += 1
          }
        }
      }
      return written
    }
  }
}
