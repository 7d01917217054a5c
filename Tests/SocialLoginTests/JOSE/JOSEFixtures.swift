// Test keys and tokens for the JOSE tests, generated once by the Python script below with
// the `cryptography` package (python3; PyJWT is not installed). The private keys were thrown
// away: Swift verifies only. Regenerate with
// `python3 make_jose_fixtures.py > fixtures.json` and re-emit this file from the JSON.
//
// # Generates Tests/SocialLoginTests/JOSE/JOSEFixtures.swift (fresh random keys on every run).
// import base64, json, sys
// from cryptography.hazmat.primitives.asymmetric import rsa, ec, padding
// from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
// from cryptography.hazmat.primitives import hashes
//
// def b64(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
// def i2b(i, n=None):
//     n = n or (i.bit_length() + 7) // 8
//     return i.to_bytes(n, "big")
// def seg(obj): return b64(json.dumps(obj, separators=(",", ":")).encode())
//
// rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
// rn = rsa_key.public_key().public_numbers()
// rsa_jwk = {"kty": "RSA", "kid": "rsa-1", "use": "sig",
//            "n": b64(i2b(rn.n)), "e": b64(i2b(rn.e))}
//
// def ec_jwk(key, kid):
//     n = key.public_key().public_numbers()
//     return {"kty": "EC", "crv": "P-256", "kid": kid,
//             "x": b64(i2b(n.x, 32)), "y": b64(i2b(n.y, 32))}
// ec1 = ec.generate_private_key(ec.SECP256R1()); ec2 = ec.generate_private_key(ec.SECP256R1())
//
// def sign_rsa(header, payload_b64, h):
//     si = (seg(header) + "." + payload_b64).encode()
//     return si.decode() + "." + b64(rsa_key.sign(si, padding.PKCS1v15(), h))
// def sign_ec(key, header, payload_b64):
//     si = (seg(header) + "." + payload_b64).encode()
//     r, s = decode_dss_signature(key.sign(si, ec.ECDSA(hashes.SHA256())))
//     return si.decode() + "." + b64(i2b(r, 32) + i2b(s, 32))
//
// claims = {"iss": "https://issuer.example", "sub": "user-1", "aud": "client-1",
//           "iat": 1700000000, "exp": 1700003600, "nonce": "n-0S6_WzA2Mj"}
// line = {"iss": "https://access.line.me", "sub": "U1234567890abcdef", "aud": "1656000000",
//         "iat": 1700000000, "exp": 1700003600, "nonce": "line-nonce", "amr": ["linesso"]}
// far = dict(claims, exp=4102444800)  # 2100-01-01, for the benchmark and the CLI
// out = {
//   "rsaJWK": rsa_jwk, "ec1JWK": ec_jwk(ec1, "ec-1"), "ec2JWK": ec_jwk(ec2, "ec-2"),
//   "rs256": sign_rsa({"alg": "RS256", "kid": "rsa-1", "typ": "JWT"}, seg(claims),
//                     hashes.SHA256()),
//   "rs384": sign_rsa({"alg": "RS384", "kid": "rsa-1"}, seg(claims), hashes.SHA384()),
//   "rs512": sign_rsa({"alg": "RS512", "kid": "rsa-1"}, seg(claims), hashes.SHA512()),
//   "rs256NoKid": sign_rsa({"alg": "RS256"}, seg(far), hashes.SHA256()),
//   "rs256Binary": sign_rsa({"alg": "RS256", "kid": "rsa-1"}, b64(bytes(range(40))),
//                           hashes.SHA256()),
//   "es256": sign_ec(ec1, {"alg": "ES256", "kid": "ec-1", "typ": "JWT"}, seg(claims)),
//   "es256Far": sign_ec(ec1, {"alg": "ES256", "kid": "ec-1"}, seg(far)),
//   "rs256Far": sign_rsa({"alg": "RS256", "kid": "rsa-1"}, seg(far), hashes.SHA256()),
//   "es256Rotated": sign_ec(ec2, {"alg": "ES256", "kid": "ec-2"}, seg(claims)),
//   "lineES256": sign_ec(ec1, {"alg": "ES256", "kid": "ec-1", "typ": "JWT"}, seg(line)),
//   "rs256Crit": sign_rsa({"alg": "RS256", "kid": "rsa-1", "crit": ["exp-ext"], "exp-ext": 1},
//                         seg(claims), hashes.SHA256()),
// }
// json.dump(out, sys.stdout, indent=1)

/// Fixed RS256/RS384/RS512/ES256 tokens and their public JWKs (see the script above).
enum JOSEFixtures {
  /// RSA-2048 public key, `kid: rsa-1`, `use: sig`.
  static let rsaJWK = """
    {"kty":"RSA","kid":"rsa-1","use":"sig","n":"vxL67XAtmBuBC4Rcn8DQW8Va2HIvxg_ypOaFEcvBnH\
    3zffVQEzeo-NrJMaeo48K2TC2kE3Il29nSM7pB6NDO5zM9-Qnx-CFHLWuVslH_pggPtMhp8s_A0VjtZi7svtvO\
    L1bDYWVOsyOaNBL31pfn5Ry5xbaoAxJet-AVuf9znhU4FL1BE-B4z63st0uS_FQnlERmvr7FaoFu2_zAfq_eZg\
    _c2nhxatSql64G685AXDVpya7_PJbQ8euVnpxHd6z339JVhZcZHRlGORP4eJpBc3LVSR9Z49rIZyFFdUQ53FzT\
    5l8pMmwZtIaptLGyyxLCBD2aoHZvqt9gGQWa3_ZbpQ","e":"AQAB"}
    """
  /// P-256 public key, `kid: ec-1`.
  static let ec1JWK = """
    {"kty":"EC","crv":"P-256","kid":"ec-1","x":"xdd7wOYZDMZWn8ZVrN6GMtYHRePYY3VT8eNUe1w0Gk\
    4","y":"7nVAE6U8gJqDL-Ogb7ZuVEas3oxBC8cJs9Za2Ka8tAU"}
    """
  /// A second P-256 public key, `kid: ec-2` (key rotation).
  static let ec2JWK = """
    {"kty":"EC","crv":"P-256","kid":"ec-2","x":"YrHGZwE-N2KT2VWoqoqE9NyT-YX_dRs7WzukM1A_V5\
    k","y":"ATG8zezwPAS8pYouU2e2kMo29eWgz0Nqz3oUzM51Q_s"}
    """
  /// RS256, `kid: rsa-1`, standard claims (iat 1700000000, exp +1 h, nonce `n-0S6_WzA2Mj`).
  static let rs256 = """
    eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lzc3Vlci\
    5leGFtcGxlIiwic3ViIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6\
    MTcwMDAwMzYwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.obWI3P6nCG2_U49G5oeE2HU-6Sf3KZxOtlYNQNL\
    0pK8Tcvh_0Si7aiBeFYZALyyNNEfGL-x2OfzOQ9B3ivgRa_bFWUC18ukcClQmjQZ31pqwvr-tsJUoO77JrObfR\
    dgmuq4VCImrRN2OQz2haNRu24_m6lL1OaP8A4YjMLZ5DqoQvFpCusJeYsoHDm-Pizy6GzXFP4dbJ9M9UVWAesh\
    -31mgmvgwjbz4pk0-A85CKm0pOv74VKi61jpuHiRLwXBuEDmI1BdatOZ_AsMGdEHqq_rkdQrOMaTxTH7G7Yfqz\
    Nxv1wj4WVGWd9He-dLGSAHEU_viq6980l35aPm8-QDszA
    """
  /// RS384 with the standard claims.
  static let rs384 = """
    eyJhbGciOiJSUzM4NCIsImtpZCI6InJzYS0xIn0.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3\
    ViIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMzYwMCwi\
    bm9uY2UiOiJuLTBTNl9XekEyTWoifQ.U1Ev8EKM8GGmv_KN3AglcDqEdK9SKEuhFLRCunwZmuF-ZsiOzBoSj1_\
    xVjE6fP5dXBroJGfEOOMrzeU3wu0trwqYsI4eoNHd5aZuKN5k5PXrYnwJsAz2uhUirZ-UFuN6VsldwYZ05J__6\
    kHJa7dOubMB0NCmeU0i1INi7893RQsULcmDPTrJ5MRpiiJb6F571Dc_zEeNU65u2ah8MwaJ_XLbewksLYGWhIn\
    x206QG0xICQmY8k4l9pcJZCEb97WAtWibDWdoosKsLxVeaocMsKb6tq6RctarEopkrlcASll69-4omUozgaCsS\
    gPA0hU6fyu5dEPA_-in_O9ja5AqHQ
    """
  /// RS512 with the standard claims.
  static let rs512 = """
    eyJhbGciOiJSUzUxMiIsImtpZCI6InJzYS0xIn0.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3\
    ViIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMzYwMCwi\
    bm9uY2UiOiJuLTBTNl9XekEyTWoifQ.Ih9vmwASe-QfHe6P9f6bDyUPtywEs6PE2PM6j8swhEAT6ExvkGy3HzZ\
    Jd7cVjsenepDYGWPB0eWH0e42DqSzWzsQoBHPrlg5uaeNxLVxa8prSyo2KaA2e305qIr04WQ3yLE_aJJ9E1qj6\
    jK0HlvlSOWzQSHxFDOdqFLrQGKfgsfhaJ8mIalIOrY5DqpqEr9d99GbC6EALCRi_hHD_jkzSvvIl59a5k8U8se\
    vVDfGjxqDrXTsaARlrlwHcNMVwJV9jl3pmYFUbvbSthLrhQShhbYGr2Nj_ttZKdVFf3LZ6doSJ39ek9a6CPPuG\
    GFC2al035onqtRzgnV2k9RospV8Yw
    """
  /// RS256 without `kid`; claims expire in 2100.
  static let rs256NoKid = """
    eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoidXNlci0xIiwiY\
    XVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6NDEwMjQ0NDgwMCwibm9uY2UiOiJuLTBTNl9\
    XekEyTWoifQ.EWrqc2D5gCAM7nXgJlzH8dDDOToo7ll0kN-LbOV_DMcC6cdoTzR-ej1nchwQSLP_cleQMUIdRd\
    fy6nr0LOZ4uJ1_y462gGoL9iYVQVAkK4-4NYofxZupx9j8cefHKvXqL39J953KybNeF-StTiECQeDnUzEeeiUL\
    lwDFCrbzq6mYHzXTlute-6krSHlC_5xUAgBvY_V6aiij9OcRbum1aVJSEKroIlWRqqdHkrKdru6Y9BpJNRan6O\
    hmBW0GducIWrsztIvUWUkQQVZ6ZoPJ7ZvkrxvGIqCChnkPW9K2ul_p8CHunpk86HJjDGFXDwVWr1FWHvC8WJBb\
    Do3b1tESQQ
    """
  /// RS256 over a 40-byte binary (non-JSON) payload: bytes 0...39.
  static let rs256Binary = """
    eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIn0.AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gIS\
    IjJCUmJw.toxk7iBD0bivS0s18d1qxFzvQMFcCcSvK4VFmlsRuHaVMZBlGY1rfsECg9rrccCIEGv5TOQcDWuDY\
    2ZE6NqJwueQmwWNhg7tQx-rc1IfGz6SACMabYznh5tUOnmPrSHWdqRKyIi7geierZrhGM87iPue8rflk9_D-Fh\
    3D1dLR1P_LOrBAvACbYcT9f5El1UbFNTPTIg0mR3LqetfZV-ZG4IwF1RUlVOcYnz852v5nI8Sbi1g0OBg2gb5c\
    vKmcXYuUWjgVJJpL2JfTgdAOHUZ5eQ4xfefMkD04hqyEktqc8cB4I2Baucnx_Nzpf6s08YylmRBbvtD15uCWDJ\
    EItMfjg
    """
  /// ES256, `kid: ec-1`, standard claims.
  static let es256 = """
    eyJhbGciOiJFUzI1NiIsImtpZCI6ImVjLTEiLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJodHRwczovL2lzc3Vlci5\
    leGFtcGxlIiwic3ViIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6M\
    TcwMDAwMzYwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.B9EYp_eQZWukmQ_-iDvaGmwMwCy2Ul1DvLhwF2V4\
    lczj1hyEApJyPRWQGaVw3jwcaUt7cvm59anaUGxSmQvK4g
    """
  /// ES256, `kid: ec-1`, claims expire in 2100.
  static let es256Far = """
    eyJhbGciOiJFUzI1NiIsImtpZCI6ImVjLTEifQ.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3V\
    iIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6NDEwMjQ0NDgwMCwib\
    m9uY2UiOiJuLTBTNl9XekEyTWoifQ.8EGTixxY_BaB386sAOVSItNIlCyyUXHnYhPmUxO19cuPhSPJo1S3SfQe\
    b1aunNl08FzQ9zGfLH-lOH7IkCpulg
    """
  /// RS256, `kid: rsa-1`, claims expire in 2100.
  static let rs256Far = """
    eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIn0.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3\
    ViIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6NDEwMjQ0NDgwMCwi\
    bm9uY2UiOiJuLTBTNl9XekEyTWoifQ.YXBai4M2xjZl0A1N-mlMRQOuaqQJEFlpn2PgV0TM01SYpDvJgGMhGmM\
    B2MU5GJ0FEedlQkeXU_mxSzYScAQHSTw3fFG8TNWdR_GwfwYoElhUhiylSOKhYBXAZuCxm_OPujc0EKObuvFOP\
    0V_EoiUQWkxTolRo4gIfoylrhzH-yVnBNX2Qy62f_zHPfpbM2LgrQfnRC_GQZc3V0EEa1oVdVGPzFzXpS7M3LR\
    Om3xskAO8psTbuP99eY9kjON9tmaHHh7e8oT3L0oWRGdBjdj0qycobDlwPkQTW3QDI8hW2408pb3TZfl1IuvNc\
    XXWjxyVWzXLXFkUNcyq8WvbE06Ujg
    """
  /// ES256 signed by `ec-2`, standard claims.
  static let es256Rotated = """
    eyJhbGciOiJFUzI1NiIsImtpZCI6ImVjLTIifQ.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3V\
    iIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMzYwMCwib\
    m9uY2UiOiJuLTBTNl9XekEyTWoifQ.znJv5R--AW0a9Xqfm3zpn9iV93IaAGNtjtKE6NYncOavlISA3RR_dl5s\
    VDDwXMMssu2cSHH2wH6DUOCHxITa9Q
    """
  /// A LINE-style ES256 ID token, `kid: ec-1`, aud `1656000000`, nonce `line-nonce`.
  static let lineES256 = """
    eyJhbGciOiJFUzI1NiIsImtpZCI6ImVjLTEiLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJodHRwczovL2FjY2Vzcy5\
    saW5lLm1lIiwic3ViIjoiVTEyMzQ1Njc4OTBhYmNkZWYiLCJhdWQiOiIxNjU2MDAwMDAwIiwiaWF0IjoxNzAwM\
    DAwMDAwLCJleHAiOjE3MDAwMDM2MDAsIm5vbmNlIjoibGluZS1ub25jZSIsImFtciI6WyJsaW5lc3NvIl19.9F\
    i3q470jVYHo-4wezQ2dQv_xnO3-YmeEDPZjerybkqFHOAv4jXh8PclR-d058lRH_UZSk5RJo0u6YvuPoDrPw
    """
  /// RS256 whose header marks an unknown extension critical.
  static let rs256Crit = """
    eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIiwiY3JpdCI6WyJleHAtZXh0Il0sImV4cC1leHQiOjF9.eyJpc\
    3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3ViIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQ\
    iOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMzYwMCwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.qC3WooAoUfvTW6\
    wylonGw_9HLLOdcSfrhUQr0iwbr9W_NCoru9a8ylHhwGjZVIuOQG8VSWWM8y_6vScxXIaWGBLA49zAriiqbdOG\
    fw6mJj2kV-AngV8QFnoWd2DtZrqPoQIRBaDtUFU4Jg-V2MEGS8PSgUk6kpCak0ncS8klcVs8rFBubo0loFOV44\
    jK-BZ0Vsj8txGq5WJmDqp65QMsqGr55Jay-hRTPtY2XX682YyOIV89SrGjXkp_-7xIPzdW14xgoYzptaJ1mOFd\
    QTWHF6Pc47_uH9w9KhTmNwEobnKPv9Epwud4Xld4RoTK3nPoqYMgs-ztxdTlCnLL5FYhDw
    """
}
