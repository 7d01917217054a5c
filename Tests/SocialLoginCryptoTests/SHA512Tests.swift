import SocialLoginCrypto
import TestPacing
import Testing

@Suite(.heavy, .timeLimit(.minutes(10))) struct SHA512Tests {
  @Test func sizes() {
    #expect(SHA512.digestByteCount == 64)
    #expect(SHA512.blockByteCount == 128)
    #expect(SHA384.digestByteCount == 48)
    #expect(SHA384.blockByteCount == 128)
  }

  @Test func sha512FIPSExamplesAndEmptyMessage() throws {
    try checkHash(
      SHA512.self,
      vectors: [
        (
          [],
          "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
            + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        ),
        (
          Array("abc".utf8),
          "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
        (
          fips448BitMessage,
          "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
            + "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"
        ),
        (
          fips896BitMessage,
          "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
            + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        ),
      ])
  }

  @Test func sha384FIPSExamplesAndEmptyMessage() throws {
    try checkHash(
      SHA384.self,
      vectors: [
        (
          [],
          "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da"
            + "274edebfe76f65fbd51ad2f14898b95b"
        ),
        (
          Array("abc".utf8),
          "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
            + "8086072ba1e7cc2358baeca134c825a7"
        ),
        (
          fips448BitMessage,
          "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6"
            + "b0455a8520bc4e6f5fe95b1fe3c8452b"
        ),
        (
          fips896BitMessage,
          "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712"
            + "fcc7c71a557e2db966c3e9fa91746039"
        ),
      ])
  }

  @Test func oneMillionA() {
    let message = [UInt8](repeating: 0x61, count: 1_000_000)
    #expect(
      SHA512.hash(message).hex
        == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
        + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    #expect(
      SHA384.hash(message).hex
        == "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b"
        + "07b8b3dc38ecc4ebae97ddd87f3d8985")
  }

  /// 111/112 is where SHA-512 padding spills into an extra block.
  @Test func sha512PaddingBoundaries() throws {
    try checkHash(
      SHA512.self,
      vectors: [
        (
          patternBytes(count: 111),
          "a1a111449b198d9b1f538bad7f3fc1022b3a5b1a5e90a0bc860de8512746cbc3"
            + "1599e6c834de3a3235327af0b51ff57bf7acf1974a73014d9c3953812edc7c8d"
        ),
        (
          patternBytes(count: 112),
          "c5fbd731d19d2ae1180f001be72c2c1aaba1d7b094b3748880e24593b8e117a7"
            + "50e11c1bd867cc2f96dace8c8b74abd2d5c4f236be444e77d30d1916174070b9"
        ),
        (
          patternBytes(count: 127),
          "eab89674feaa34e27aebeeff3c0a4d70070bb872d5e9f186cf1dbbdee517b6e3"
            + "5724d629ff025a5b07185e911ada7e3c8acf830aa0e4f71777bd2d44f504f7f0"
        ),
        (
          patternBytes(count: 128),
          "1dffd5e3adb71d45d2245939665521ae001a317a03720a45732ba1900ca3b835"
            + "1fc5c9b4ca513eba6f80bc7b1d1fdad4abd13491cb824d61b08d8c0e1561b3f7"
        ),
        (
          patternBytes(count: 129),
          "1d9da57fbbdab09afb3506ab2d223d06109d65c1c8ad197f50138f714bc4c3f2"
            + "fe5787922639c680acad1c651f955990425954ce2cba0c5cc83f2667d878eb0f"
        ),
        (
          patternBytes(count: 239),
          "cb4c7fd522756d5781ad3a4f590a1d862906b960e7720136cb3fb36b563caa1e"
            + "a5689134291fa79c80ccc2b4092b41df32ebdcb36dbe79db483440228c1622a8"
        ),
        (
          patternBytes(count: 240),
          "6c48466c9f6c07e4ab762c696b7eeb35cfe236fca73683e5fab873ac3489b4d2"
            + "eb3d7afcce7e8165dbbf37aded3b5b0c889c0b7e0f1790a8330d8677429d91a5"
        ),
        (
          patternBytes(count: 256),
          "7ff1cd1e9773a4b7ba1f40e642db0d879bd5f6cc151a7d3401a0bc7778b8270c"
            + "108b530fb195f2383f4cec8cf05778e6af4db56811673371674cec1524488f83"
        ),
      ])
  }

  @Test func sha384PaddingBoundaries() throws {
    try checkHash(
      SHA384.self,
      vectors: [
        (
          patternBytes(count: 111),
          "f5f9fe110d809d34029de262a01b208356caec6e054c7f926b2591f6c9780579"
            + "d4b59f5578c6f531a84f158a33660cef"
        ),
        (
          patternBytes(count: 112),
          "33ba080ec0ccb378e4e95fed3b26c23aa1a280476e007519ee47f60cd9c5c8a6"
            + "5d627259a9aa2fd33ca06d3c14ee5548"
        ),
        (
          patternBytes(count: 127),
          "d5fcfe2fcf6b3ef375ede37c8123d9b78065fecc1d55197e2f7721e6e9a93d0b"
            + "a4d7fd15f9b96dea2744df24141ba2ef"
        ),
        (
          patternBytes(count: 128),
          "ca2385773319124534111a36d0581fc3f00815e907034b90cff9c3a861e126a7"
            + "41d5dfcff65a417b6d7296863ac0ec17"
        ),
        (
          patternBytes(count: 129),
          "ef49ae5b9ad51433d00323528d81ea8d2e4d2b507dbd9f1cb84f952b66249a78"
            + "8b1c89fcdb77a0db9f1feb901d47fc73"
        ),
      ])
  }
}
