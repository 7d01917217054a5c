import Foundation

extension FirebaseProvider {
  /// Verifies a Firebase ID token (``ExternalToken/idToken(_:nonce:)``) as
  /// ``verifyIDToken(_:)`` does; the audience is proven to be the project.
  public func verify(_ token: ExternalToken) async throws -> VerifiedIdentity {
    guard case .idToken(let idToken, _) = token else {
      throw AuthError(
        .unsupported, "Firebase verifies ID tokens only.", provider: .firebase)
    }
    let verified = try await verifyIDToken(idToken.revealed)
    return VerifiedIdentity(
      identity: verified.identity, expiresAt: verified.expiresAt,
      audience: .proven(audience: configuration.projectID))
  }

  /// Verifies a Firebase ID token the way the Admin SDKs do, for backends that receive ID
  /// tokens from apps.
  ///
  /// The token must be `RS256` with a `kid` naming one of Google's published x509
  /// certificates (fetched from ``Configuration/certificatesURL`` and cached by `max-age`), its
  /// `iss` must be `https://securetoken.google.com/<project>`, its `aud` the project, `exp` in
  /// the future, `iat` and `auth_time` not in the future (with ``Configuration/leeway``), and
  /// `sub` a non-empty string of at most 128 characters; with a tenant configured,
  /// `firebase.tenant` must match. Unsigned tokens (`alg: none`, empty signature), which the
  /// Firebase Auth emulator issues, are accepted **only** when code set
  /// ``Configuration/acceptsUnsignedEmulatorTokens`` and ``Configuration/emulatorHost`` is a
  /// loopback host (`127.0.0.0/8`, `::1`, `localhost`); no environment variable makes them
  /// acceptable. Their claims are checked as above. A `FIREBASE_AUTH_EMULATOR_HOST` that
  /// is malformed or names another host makes every verification fail with
  /// ``AuthError/Code/configuration`` naming the variable.
  /// Revocation is not checked (that needs service-account credentials).
  ///
  /// ```swift
  /// let token = try await firebase.verifyIDToken(request.bearerToken)
  /// let uid = token.userID
  /// ```
  ///
  /// - Throws: ``AuthError/Code/invalidToken`` with a ``JOSEError`` reason, the fetch error
  ///   when no certificates could be obtained, or ``AuthError/Code/configuration`` for a bad
  ///   emulator host or a certificates URL that is neither `https` nor loopback `http`.
  public func verifyIDToken(_ token: String) async throws -> FirebaseIDToken {
    do {
      return try await checkIDToken(token)
    } catch let error as AuthError {
      throw error.naming(.firebase)
    } catch let error as JOSEError {
      throw error.asAuthError.naming(.firebase)
    }
  }

  /// ``verifyIDToken(_:)`` before its errors are given the provider.
  private func checkIDToken(_ token: String) async throws -> FirebaseIDToken {
    if let error = configuration.emulatorHostError { throw error }
    let jws = try CompactJWS(parsing: token)
    let claims: JSONValue
    let unsigned: Bool
    if jws.header.algorithm == "none" {
      guard configuration.acceptsUnsignedTokens else {
        throw JOSEError(
          .algorithmNotAllowed,
          "Unsigned ID tokens (alg none) are refused: only the Firebase Auth emulator issues "
            + "them, and they are accepted only when the configuration sets "
            + "acceptsUnsignedEmulatorTokens (tests and development; no environment variable "
            + "can)."
        ).asAuthError
      }
      guard jws.signature.isEmpty else {
        throw JOSEError(.malformed, "An unsigned ID token must have an empty signature.")
          .asAuthError
      }
      do throws(JOSEError) {
        claims = .object(try JWSVerifier.claims(of: jws.payload))
      } catch {
        throw error.asAuthError
      }
      unsigned = true
    } else {
      guard jws.header.algorithm == JWSAlgorithm.rs256.rawValue else {
        throw JOSEError(
          .algorithmNotAllowed,
          "Firebase ID tokens are RS256, not \(ErrorText.excerpt(jws.header.algorithm, limit: 20))."
        ).asAuthError
      }
      guard let keyID = jws.header.keyID, !keyID.isEmpty else {
        throw JOSEError(.keyNotFound, "The Firebase ID token has no 'kid' header.").asAuthError
      }
      let verified = try await JWSVerifier(allowedAlgorithms: [.rs256])
        .verify(token, resolver: certificates)
      do throws(JOSEError) {
        claims = .object(try JWSVerifier.claims(of: verified.payload))
      } catch {
        throw error.asAuthError
      }
      unsigned = false
    }
    return try checkClaims(claims, unsigned: unsigned)
  }

  func checkClaims(_ claims: JSONValue, unsigned: Bool) throws(AuthError) -> FirebaseIDToken {
    var policy = JWTClaimsPolicy(
      issuer: configuration.issuer, audience: configuration.projectID,
      leeway: configuration.leeway, requiredClaims: ["exp", "iat", "sub", "aud", "iss"])
    policy.rejectsUntrustedAudiences = true
    let now = clock.wallTime.timeIntervalSince1970
    try policy.check(claims, algorithm: .rs256, now: now)
    do throws(JOSEError) {
      let token = try FirebaseIDToken(claims: claims, isUnsigned: unsigned)
      if let authTime = token.authenticatedAt,
        authTime.timeIntervalSince1970 > now + configuration.leeway
      {
        throw JOSEError(.issuedInFuture, "The Firebase ID token's 'auth_time' is in the future.")
      }
      if claims["auth_time"] != nil, token.authenticatedAt == nil {
        throw JOSEError(.malformed, "The Firebase ID token's 'auth_time' is not a number.")
      }
      if let tenant = configuration.tenantID, token.tenantID != tenant {
        throw JOSEError(
          .audienceMismatch, "The Firebase ID token belongs to another tenant than '\(tenant)'.")
      }
      return token
    } catch {
      throw error.asAuthError
    }
  }
}
