extension P256PrivateKey {
  /// Reads a PKCS #8 PEM private key (`-----BEGIN PRIVATE KEY-----`) on P-256: the `.p8`
  /// files Apple issues for Sign in with Apple, App Store Connect and APNs.
  ///
  /// ```swift
  /// let key = try P256PrivateKey(pkcs8PEM: String(contentsOfFile: "AuthKey_ABC123DEFG.p8"))
  /// ```
  ///
  /// - Throws: ``PKCS8Error`` naming what is wrong: not one PEM block, malformed DER, not an
  ///   EC key, another curve, an invalid scalar, or a stored public key that does not match.
  public init(pkcs8PEM text: String) throws(PKCS8Error) {
    let der: [UInt8]
    do throws(PEM.Problem) {
      der = try PEM.body(text, label: "PRIVATE KEY")
    } catch {
      throw .invalidPEM(error.message)
    }
    try self.init(pkcs8DER: der)
  }

  /// Reads a DER `PrivateKeyInfo` (RFC 5208) holding an `ECPrivateKey` (RFC 5915) on P-256.
  ///
  /// - Throws: As ``init(pkcs8PEM:)``, from the DER on.
  public init(pkcs8DER der: [UInt8]) throws(PKCS8Error) {
    let (scalar, storedPublicKey) = try Self.readPrivateKeyInfo(der)
    do throws(P256KeyError) {
      try self.init(rawRepresentation: scalar)
    } catch {
      throw .invalidKey(error)
    }
    if let storedPublicKey, storedPublicKey != publicKey.x963Representation {
      throw .publicKeyMismatch
    }
  }

  /// `PrivateKeyInfo { version 0, AlgorithmIdentifier { id-ecPublicKey, prime256v1 },
  /// privateKey OCTET STRING (ECPrivateKey), [0] attributes OPTIONAL }` → the scalar and the
  /// public key stored with it, if any.
  private static func readPrivateKeyInfo(_ der: [UInt8]) throws(PKCS8Error) -> (
    [UInt8], [UInt8]?
  ) {
    func read<T>(_ body: () throws(DERError) -> T) throws(PKCS8Error) -> T {
      do throws(DERError) { return try body() } catch { throw .malformedDER(error) }
    }
    var outer = DERReader(der)
    var info = try read { () throws(DERError) in try outer.sequence() }
    try read { () throws(DERError) in try outer.finish() }
    guard try read({ () throws(DERError) in try info.integerBytes() }) == [0] else {
      throw .unsupportedVersion
    }
    var algorithm = try read { () throws(DERError) in try info.sequence() }
    let oid = try read { () throws(DERError) in try algorithm.objectIdentifier() }
    guard oid == X509Certificate.ecPublicKey else {
      throw .unsupportedKeyAlgorithm(X509Certificate.dotted(oid))
    }
    let curve = try read { () throws(DERError) in try algorithm.objectIdentifier() }
    try read { () throws(DERError) in try algorithm.finish() }
    guard curve == X509Certificate.prime256v1 else {
      throw .unsupportedCurve(X509Certificate.dotted(curve))
    }
    return try read { () throws(DERError) in
      var octets = try info.read(DERReader.octetStringTag)
      // Optional [0] attributes (PKCS #8 v1) are allowed and ignored.
      if info.nextTag == 0xA0 { _ = try info.readElement() }
      try info.finish()
      return try ecPrivateKey(octets.remainingBytes())
    }
  }

  /// `ECPrivateKey { version 1, privateKey OCTET STRING, [0] parameters OPTIONAL,
  /// [1] publicKey OPTIONAL }` (RFC 5915); parameters, when present, must name P-256.
  private static func ecPrivateKey(_ der: [UInt8]) throws(DERError) -> ([UInt8], [UInt8]?) {
    var outer = DERReader(der)
    var ecKey = try outer.sequence()
    try outer.finish()
    guard try ecKey.integerBytes() == [1] else { throw .invalidPrimitive }
    var scalarReader = try ecKey.read(DERReader.octetStringTag)
    let scalar = scalarReader.remainingBytes()
    var publicKey: [UInt8]?
    if ecKey.nextTag == 0xA0 {
      var parameters = try ecKey.read(0xA0)
      guard try parameters.objectIdentifier() == X509Certificate.prime256v1 else {
        throw .invalidPrimitive
      }
      try parameters.finish()
    }
    if ecKey.nextTag == 0xA1 {
      var wrapped = try ecKey.read(0xA1)
      publicKey = try wrapped.bitStringBytes()
      try wrapped.finish()
    }
    try ecKey.finish()
    return (scalar, publicKey)
  }
}

extension P256PrivateKey {
  /// The key as a PKCS #8 PEM (`-----BEGIN PRIVATE KEY-----`, with its public key), the form
  /// of an Apple `.p8` file: what the emulator hands out for Sign in with Apple client
  /// secrets. The text is the private key itself: store it as a secret.
  public var pkcs8PEM: String {
    // PrivateKeyInfo { 0, { id-ecPublicKey, prime256v1 }, OCTET STRING { ECPrivateKey {
    //   1, OCTET STRING scalar, [1] BIT STRING public key } } }: fixed lengths on P-256.
    let header: [UInt8] =
      [0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07]
      + X509Certificate.ecPublicKey + [0x06, 0x08] + X509Certificate.prime256v1
      + [0x04, 0x6D, 0x30, 0x6B, 0x02, 0x01, 0x01, 0x04, 0x20]
    let der =
      header + rawRepresentation + [0xA1, 0x44, 0x03, 0x42, 0x00]
      + publicKey.x963Representation
    let body = Array(Base64.encode(der))
    let lines = stride(from: 0, to: body.count, by: 64).map {
      String(body[$0..<min($0 + 64, body.count)])
    }
    return "-----BEGIN PRIVATE KEY-----\n" + lines.joined(separator: "\n")
      + "\n-----END PRIVATE KEY-----\n"
  }
}
