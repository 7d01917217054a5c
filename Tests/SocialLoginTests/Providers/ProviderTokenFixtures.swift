// Fixed RS256 (Facebook Limited Login) and ES256 (LINE) ID tokens and their public keys,
// generated once by the Python script below (package `cryptography`); the private keys were
// thrown away: Swift only verifies. Claims are at ManualClock's default time 1_700_000_000
// (exp +1 h; the expired ones end at 1_699_993_600). Regenerate: python3 script > this file.
//
// # Generates Tests/SocialLoginTests/Providers/ProviderTokenFixtures.swift (fresh keys each run).
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
// fb_jwk = {"kty": "RSA", "kid": "fb-rsa-1", "use": "sig", "alg": "RS256",
//           "n": b64(i2b(rn.n)), "e": b64(i2b(rn.e))}
// ec_key = ec.generate_private_key(ec.SECP256R1())
// en = ec_key.public_key().public_numbers()
// line_jwk = {"kty": "EC", "crv": "P-256", "kid": "line-ec-1", "use": "sig", "alg": "ES256",
//             "x": b64(i2b(en.x, 32)), "y": b64(i2b(en.y, 32))}
//
// def rs256(claims, kid="fb-rsa-1"):
//     si = (seg({"alg": "RS256", "kid": kid, "typ": "JWT"}) + "." + seg(claims)).encode()
//     return si.decode() + "." + b64(rsa_key.sign(si, padding.PKCS1v15(), hashes.SHA256()))
// def es256(claims):
//     si = (seg({"alg": "ES256", "kid": "line-ec-1", "typ": "JWT"}) + "." + seg(claims)).encode()
//     r, s = decode_dss_signature(ec_key.sign(si, ec.ECDSA(hashes.SHA256())))
//     return si.decode() + "." + b64(i2b(r, 32) + i2b(s, 32))
//
// fb = {"iss": "https://www.facebook.com", "aud": "1234567890", "sub": "10001",
//       "iat": 1700000000, "exp": 1700003600, "nonce": "fb-nonce", "jti": "j-1",
//       "name": "Ada Lovelace", "email": "ada@example.com",
//       "picture": "https://platform-lookaside.fbsbx.com/p/10001"}
// line = {"iss": "https://access.line.me", "sub": "U1234567890abcdef1234567890abcdef",
//         "aud": "1656000000", "iat": 1700000000, "exp": 1700003600, "nonce": "line-nonce",
//         "amr": ["linesso"], "name": "Taro", "picture": "https://profile.line-scdn.net/u1",
//         "email": "taro@example.jp"}
// expired = {"iat": 1699990000, "exp": 1699993600}
// out = {
//   "facebookJWKS": json.dumps({"keys": [fb_jwk]}, separators=(",", ":")),
//   "lineJWKS": json.dumps({"keys": [line_jwk]}, separators=(",", ":")),
//   "facebookValid": rs256(fb),
//   "facebookLimitedIssuer": rs256(dict(fb, iss="https://limited.facebook.com")),
//   "facebookWrongAudience": rs256(dict(fb, aud="999999")),
//   "facebookWrongNonce": rs256(dict(fb, nonce="other-nonce")),
//   "facebookLookalikeIssuer": rs256(dict(fb, iss="https://evilfacebook.com")),
//   "facebookSuffixIssuer": rs256(dict(fb, iss="https://www.facebook.com.evil.test")),
//   "facebookHTTPIssuer": rs256(dict(fb, iss="http://www.facebook.com")),
//   "facebookExpired": rs256(dict(fb, **expired)),
//   "facebookUnknownKey": rs256(fb, kid="fb-rsa-2"),
//   "lineValid": es256(line),
//   "lineWrongAudience": es256(dict(line, aud="1656999999")),
//   "lineWrongNonce": es256(dict(line, nonce="other-nonce")),
//   "lineWrongIssuer": es256(dict(line, iss="https://access.line.me.evil.test")),
//   "lineExpired": es256(dict(line, **expired)),
// }
// print("// Fixed RS256 (Facebook Limited Login) and ES256 (LINE) ID tokens and their public keys,")
// print("// generated once by Tests/SocialLoginTests/Providers/make_provider_fixtures.py with the")
// print("// Python `cryptography` package; the private keys were thrown away (Swift only verifies).")
// print("// Claims at ManualClock's default time 1_700_000_000 (exp +1 h; expired ones end 1_699_993_600).")
// print("enum ProviderTokenFixtures {")
// for k, v in out.items():
//     print(f"  static let {k} =")
//     # split long strings into 90-char chunks
//     chunks = [v[i:i+88] for i in range(0, len(v), 88)]
//     print("    " + "\n      + ".join('"' + c.replace('"', '\\"') + '"' for c in chunks))
// print("}")

enum ProviderTokenFixtures {
  static let facebookJWKS =
    "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"fb-rsa-1\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\"uIeLc7UFYkY_mklpTI"
    + "fqUjBRtBVZYJ36TZVTcjI-mE2eYGefjB29fkE-gye2sGG2YHp9kZccu5CVvbdPsIqpZRIjKK9hjVlZ48GfAtl4By"
    + "Nt7NWaHKUQ9siTczEfrqS6F4tC7fniZPJVkjhEE7JumbbOhL1A3V1L08MMyDwYX2WGyvvzn-VVOQaFWinSIkSeYt"
    + "aYovcpxkd7OoGqaDQ6DuH8_EhkrmREMaAitVpgRGnprPxm4ahCoCqonuUDcVMMhxq2qpbT2GwMGydaQBpQUYRjic"
    + "NvmdfNg7GHUs5LGkVcT0kMOLlq6pk2z_f20e33fJ7FVwr9kZE8U5Uq4pw11Q\",\"e\":\"AQAB\"}]}"
  static let lineJWKS =
    "{\"keys\":[{\"kty\":\"EC\",\"crv\":\"P-256\",\"kid\":\"line-ec-1\",\"use\":\"sig\",\"alg\":\"ES256\",\"x\":\"vZzc"
    + "MA0dJhSOueut5z95PMAPpwDJ4d4XBsu1v7HFRyQ\",\"y\":\"XAjhB1YPvO_Vfk3-cWMRMHXZCsCog5kJ8ZEaRlxKk2"
    + "c\"}]}"
  static let facebookValid =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3d3dy5m"
    + "YWNlYm9vay5jb20iLCJhdWQiOiIxMjM0NTY3ODkwIiwic3ViIjoiMTAwMDEiLCJpYXQiOjE3MDAwMDAwMDAsImV4"
    + "cCI6MTcwMDAwMzYwMCwibm9uY2UiOiJmYi1ub25jZSIsImp0aSI6ImotMSIsIm5hbWUiOiJBZGEgTG92ZWxhY2Ui"
    + "LCJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsInBpY3R1cmUiOiJodHRwczovL3BsYXRmb3JtLWxvb2thc2lkZS5m"
    + "YnNieC5jb20vcC8xMDAwMSJ9.WFWzVH-V4fMQ4lhMEY8SR4786_YukFhngrrH3DS9Hg2dmGi87n95UitGWgKMxIB"
    + "LDMxtHnDwd9XMzuEEpkTS5b21axFfmOgikIe7yO0ugKJ9AXKwH5JRpTB2spKPidBTFLNXeCt-us4vKpcKCNhYwck"
    + "EHFM8_DUt-YNDc4ORT0cl90h7G1YSyKdEmMmiU3IcNuGFBXce68jCAFUU2ikX9INRz1MazpXL10Hkrm0E7nEA937"
    + "vhHaqEyBvCIJBQhSnT7zoc_kwHCjhdzuqVAuZwbEJLVK5evDJsF8Dd-qlPe7qHLT1Y7E7UDaL0A3kuKXYRxOHvuZ"
    + "9se-RZWQudZrNcA"
  static let facebookLimitedIssuer =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2xpbWl0"
    + "ZWQuZmFjZWJvb2suY29tIiwiYXVkIjoiMTIzNDU2Nzg5MCIsInN1YiI6IjEwMDAxIiwiaWF0IjoxNzAwMDAwMDAw"
    + "LCJleHAiOjE3MDAwMDM2MDAsIm5vbmNlIjoiZmItbm9uY2UiLCJqdGkiOiJqLTEiLCJuYW1lIjoiQWRhIExvdmVs"
    + "YWNlIiwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJwaWN0dXJlIjoiaHR0cHM6Ly9wbGF0Zm9ybS1sb29rYXNp"
    + "ZGUuZmJzYnguY29tL3AvMTAwMDEifQ.l3R_zY2-837H9VwP0GMhKI4Y8ZJbtgApk-5w45OqDhkSf-1a2bJHvrVYU"
    + "V621Hk_2z6gBm6mau3JgZwSVvhPPWjQswXYeSOp2Ldnb101PlydpLgfqgbdZainadxn7QsZyn4MvgKhs9_JQ9eN2"
    + "NJyvHXZhjaKg4jk_axqxOegB8q1499E2TFD5rbIzido06iDLTE6AQBMVxqe_F5yF6I6jgeR94LGb7bWt1YNs5uO8"
    + "B17vzQqdRJ1drhVyDJXSnimlRMvFwHu4xa94_Z1nkxdqpxAu_NyDVaNttHXxLiUaazXqlUZHxuRRzhP-WFyNIhNb"
    + "GSVDRFR2Zpu05ggndWNAw"
  static let facebookWrongAudience =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3d3dy5m"
    + "YWNlYm9vay5jb20iLCJhdWQiOiI5OTk5OTkiLCJzdWIiOiIxMDAwMSIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjox"
    + "NzAwMDAzNjAwLCJub25jZSI6ImZiLW5vbmNlIiwianRpIjoiai0xIiwibmFtZSI6IkFkYSBMb3ZlbGFjZSIsImVt"
    + "YWlsIjoiYWRhQGV4YW1wbGUuY29tIiwicGljdHVyZSI6Imh0dHBzOi8vcGxhdGZvcm0tbG9va2FzaWRlLmZic2J4"
    + "LmNvbS9wLzEwMDAxIn0.Nj5XYmNn78rIcdK0SvkNyTJrXq6TYuj3aT0FJq97pIFEN8n8HQjY8m7sKs4hIDlUaZJI"
    + "IfYIxS9fqqB4Dt1_aKJFcqy_2hPz6R1JdQAxlsBKU3jUkJ6RuMp7l_yy_1Ugm1uAK3Kvlj4RNomxWiTmInjtsXOC"
    + "K4VraYNjTFFEphxxCR04HU127eWHonGtZQ1B5QLSPPvcOPinkFhnSofVmWRmpy48So_YCeWSjOYAwWbd_nWEfl0d"
    + "XNaZMmXhBXTL0SGUJk6YyvsHOZwiDDp2BogYBGfBrVces73VWzlROfduRWRjyvQ0kwe2pUSbrrszuFQArCl_abT8"
    + "z4PQd_f5YQ"
  static let facebookWrongNonce =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3d3dy5m"
    + "YWNlYm9vay5jb20iLCJhdWQiOiIxMjM0NTY3ODkwIiwic3ViIjoiMTAwMDEiLCJpYXQiOjE3MDAwMDAwMDAsImV4"
    + "cCI6MTcwMDAwMzYwMCwibm9uY2UiOiJvdGhlci1ub25jZSIsImp0aSI6ImotMSIsIm5hbWUiOiJBZGEgTG92ZWxh"
    + "Y2UiLCJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsInBpY3R1cmUiOiJodHRwczovL3BsYXRmb3JtLWxvb2thc2lk"
    + "ZS5mYnNieC5jb20vcC8xMDAwMSJ9.kMuKGVuVXgonR50xareGgQPtMSNGFe36YzzsWQkMpAogeH8sw4167JVhNHk"
    + "xVsRz7Y9y19Bf8iasL0Ke98KZrZa0RkRYbkKPD9Enkl4QjBvxtlMw9DcQ19WyWw-uHfyUm8JehkECVdY3jbkWOhE"
    + "5YTs0payrDWhn0F5ZaMqB4xHkFEmzUlji62ZbAf3j3p_q1Z9eyWDsj3sXOUNbhmXJ3GUJTOZgxElOLidlmFrWwVr"
    + "w0Ygjrk-2AOWV9Wf6I0vCYOmcgelaIThFEuYxlmG6QvsybwJ8kXClcJdjdIGk3gW2bIQQTKTLsnXJFrmeSWFwzJl"
    + "OV8p2h8usO0aATg5Grw"
  static let facebookLookalikeIssuer =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2V2aWxm"
    + "YWNlYm9vay5jb20iLCJhdWQiOiIxMjM0NTY3ODkwIiwic3ViIjoiMTAwMDEiLCJpYXQiOjE3MDAwMDAwMDAsImV4"
    + "cCI6MTcwMDAwMzYwMCwibm9uY2UiOiJmYi1ub25jZSIsImp0aSI6ImotMSIsIm5hbWUiOiJBZGEgTG92ZWxhY2Ui"
    + "LCJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsInBpY3R1cmUiOiJodHRwczovL3BsYXRmb3JtLWxvb2thc2lkZS5m"
    + "YnNieC5jb20vcC8xMDAwMSJ9.RDgrcIvOGalenWJwmuCoMz21nRILpwxmmgxVfiaM9UTlxbkoKUHjmgqxgvE2Woy"
    + "00KGTZOYokWDbwAkNWP1R78AUMEe7ypgp9uxgi5lZaYspIwK-Bi5JpBMhvZGR6mBQFArF7kXcK5Oc3uI0ujVX2wz"
    + "VS0SETYd9_aLIEdKwqzU5zJ9DzZctgTJQ3W53_nBD9jmg0-oeQ9yt6DU5VDmVIH443exTBla5opgVxYk1OyEes5F"
    + "YPHA2d5Z6oCyZ94wQm1UAcgUl3-E4WDqlCHLXj7i8jME95NnOUdkVEDwBtboieZWeLjpMIovjMUXOiMGNomMBKnQ"
    + "HJZChhD--TmTbvw"
  static let facebookSuffixIssuer =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3d3dy5m"
    + "YWNlYm9vay5jb20uZXZpbC50ZXN0IiwiYXVkIjoiMTIzNDU2Nzg5MCIsInN1YiI6IjEwMDAxIiwiaWF0IjoxNzAw"
    + "MDAwMDAwLCJleHAiOjE3MDAwMDM2MDAsIm5vbmNlIjoiZmItbm9uY2UiLCJqdGkiOiJqLTEiLCJuYW1lIjoiQWRh"
    + "IExvdmVsYWNlIiwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJwaWN0dXJlIjoiaHR0cHM6Ly9wbGF0Zm9ybS1s"
    + "b29rYXNpZGUuZmJzYnguY29tL3AvMTAwMDEifQ.DKi7wE_5TK-P1gDmIUgxnxoacifKbSp2RXuut98gtKoYrN67H"
    + "xw5p6bUO1t9IW0kc4k1NnfkV40ebdmCKvaLtEmJ7VKHxTesQSs3GBCQM0YTnnKwPSrz0stCrp8ZJ2h2jwMXLykSz"
    + "IFop02qSulbYHjyPQDycqu2dajXi2aZa4wyFfNoDx3YkVYZN_soCgEfHhaTHFpmunIcqFJvYAFCZEfx46F_lwjm_"
    + "VL25RCp01OMyxT32O1VuQ4UN0ej6oIjj9WhvoS3RGU60PwBzofN9QTmlOXxkfaScbRwscorInSaoiMHdR7a6gMC2"
    + "yVhKIOl5mjD2hB20xFWuqGDY-Zplg"
  static let facebookHTTPIssuer =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwOi8vd3d3LmZh"
    + "Y2Vib29rLmNvbSIsImF1ZCI6IjEyMzQ1Njc4OTAiLCJzdWIiOiIxMDAwMSIsImlhdCI6MTcwMDAwMDAwMCwiZXhw"
    + "IjoxNzAwMDAzNjAwLCJub25jZSI6ImZiLW5vbmNlIiwianRpIjoiai0xIiwibmFtZSI6IkFkYSBMb3ZlbGFjZSIs"
    + "ImVtYWlsIjoiYWRhQGV4YW1wbGUuY29tIiwicGljdHVyZSI6Imh0dHBzOi8vcGxhdGZvcm0tbG9va2FzaWRlLmZi"
    + "c2J4LmNvbS9wLzEwMDAxIn0.sIvx89a1eCM1st4LChrA9CsPhdZK4-hau4fPYKcWSCso4kTzUXKk587AnHt1BtPM"
    + "Kl7ZUDP4ko0_faRXG-6IuTF5SYGDrYNSv4UeHuXMvet4Lm9T8M_64y9I7V-UfNSKdL7575u30DXYbK9dqs_HQ2jD"
    + "PlnvCxgKevlK4jewTzP10FicwhucmhS5cKadvQ6o7QT0QmGGBrIP5Oh90LXtz-8RBv-rRMNANXMVxG3ctSnJOsFo"
    + "R7GVy-1sm1ca5qoHsYpRAFtnfq6mcqXpkHo0TxPUjCS2db49XsgB0EUvWQadEFUPgSKDdICX0Uk3lCoX8-I95CNa"
    + "3zUk6VaOKEusLA"
  static let facebookExpired =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3d3dy5m"
    + "YWNlYm9vay5jb20iLCJhdWQiOiIxMjM0NTY3ODkwIiwic3ViIjoiMTAwMDEiLCJpYXQiOjE2OTk5OTAwMDAsImV4"
    + "cCI6MTY5OTk5MzYwMCwibm9uY2UiOiJmYi1ub25jZSIsImp0aSI6ImotMSIsIm5hbWUiOiJBZGEgTG92ZWxhY2Ui"
    + "LCJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsInBpY3R1cmUiOiJodHRwczovL3BsYXRmb3JtLWxvb2thc2lkZS5m"
    + "YnNieC5jb20vcC8xMDAwMSJ9.D5bF-czDElhaTT6Nxz3dDT-h3dIXlK3PoSM6vp0GjR01ZmfMNys2gKeNrh7hcEv"
    + "wXjchv0OOZoGMqNDor8KZT-QzWGpecsPoA7eX4s0eaFXKFeej7FPz9jQT58cz0SExpzUzsQQj5lGxULDAGCmWGep"
    + "xjxTM09HSvruRLmNBuBK__6ZnmC_J769DA14PEIfqJ_jmKuM4hUlp8RZL7vL3McfWIrJRWL--t1dOMAQ7b_vn-Nh"
    + "65j6KHHbvS64EyFlMBvlUvY_FgP8e-poQ3sxT8_Zn8qHhCPZSB3k6UN5WSuGxqdy0-br9OhpoQ34iN0BanzqyCZy"
    + "6hSfqM7l-UgP2lg"
  static let facebookUnknownKey =
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZiLXJzYS0yIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3d3dy5m"
    + "YWNlYm9vay5jb20iLCJhdWQiOiIxMjM0NTY3ODkwIiwic3ViIjoiMTAwMDEiLCJpYXQiOjE3MDAwMDAwMDAsImV4"
    + "cCI6MTcwMDAwMzYwMCwibm9uY2UiOiJmYi1ub25jZSIsImp0aSI6ImotMSIsIm5hbWUiOiJBZGEgTG92ZWxhY2Ui"
    + "LCJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsInBpY3R1cmUiOiJodHRwczovL3BsYXRmb3JtLWxvb2thc2lkZS5m"
    + "YnNieC5jb20vcC8xMDAwMSJ9.MIb78Zb1xlB5j3TcTYx4c_sGvOKe3M3BTrBfADNyyDPFZYH_61clGcCuVkLmf4K"
    + "2T14lYxenLOdCGbvXjQUk26SBNcwrBwPEhiUvuE9WgWn8AgDcOtEOtq4J45P4wcIlAhk7Mj7YMucPoX8mLm6IiwB"
    + "QuQYJakWnn2Ef6F20PzyNYbps0bWCntQ3rF1kda_SZfJc8LV6ib-OF9E9z4XUgiOxJ9MIzeyFE-WGRKwE_Xqv6QE"
    + "GNmIJLrwYoppJfACBdg5QEGGbQL-raltCCsNvPs-UQux5-QBEe-vGCzU_5ML_i2476DycWrPJV2rYXtYgC8NHJf9"
    + "lPsXAsRKipilQLg"
  static let lineValid =
    "eyJhbGciOiJFUzI1NiIsImtpZCI6ImxpbmUtZWMtMSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2FjY2V"
    + "zcy5saW5lLm1lIiwic3ViIjoiVTEyMzQ1Njc4OTBhYmNkZWYxMjM0NTY3ODkwYWJjZGVmIiwiYXVkIjoiMTY1NjA"
    + "wMDAwMCIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDAzNjAwLCJub25jZSI6ImxpbmUtbm9uY2UiLCJhbXI"
    + "iOlsibGluZXNzbyJdLCJuYW1lIjoiVGFybyIsInBpY3R1cmUiOiJodHRwczovL3Byb2ZpbGUubGluZS1zY2RuLm5"
    + "ldC91MSIsImVtYWlsIjoidGFyb0BleGFtcGxlLmpwIn0.mMi9guovGumWKW2I3bZMnjHPpQ8Ni2_9CZuZvQ931fz"
    + "OVeawVvizIi0iSiqiRrNU9Ja_HjShp6LNHBS7lwDxfw"
  static let lineWrongAudience =
    "eyJhbGciOiJFUzI1NiIsImtpZCI6ImxpbmUtZWMtMSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2FjY2V"
    + "zcy5saW5lLm1lIiwic3ViIjoiVTEyMzQ1Njc4OTBhYmNkZWYxMjM0NTY3ODkwYWJjZGVmIiwiYXVkIjoiMTY1Njk"
    + "5OTk5OSIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDAzNjAwLCJub25jZSI6ImxpbmUtbm9uY2UiLCJhbXI"
    + "iOlsibGluZXNzbyJdLCJuYW1lIjoiVGFybyIsInBpY3R1cmUiOiJodHRwczovL3Byb2ZpbGUubGluZS1zY2RuLm5"
    + "ldC91MSIsImVtYWlsIjoidGFyb0BleGFtcGxlLmpwIn0.BuTNtP1ro25GCLAT45XPLo8pk_JDg185gjUj-3EjCga"
    + "YR-0JRdWE1fcCY8JLs4lktNDkz51vq5C3FczCounzMA"
  static let lineWrongNonce =
    "eyJhbGciOiJFUzI1NiIsImtpZCI6ImxpbmUtZWMtMSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2FjY2V"
    + "zcy5saW5lLm1lIiwic3ViIjoiVTEyMzQ1Njc4OTBhYmNkZWYxMjM0NTY3ODkwYWJjZGVmIiwiYXVkIjoiMTY1NjA"
    + "wMDAwMCIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDAzNjAwLCJub25jZSI6Im90aGVyLW5vbmNlIiwiYW1"
    + "yIjpbImxpbmVzc28iXSwibmFtZSI6IlRhcm8iLCJwaWN0dXJlIjoiaHR0cHM6Ly9wcm9maWxlLmxpbmUtc2Nkbi5"
    + "uZXQvdTEiLCJlbWFpbCI6InRhcm9AZXhhbXBsZS5qcCJ9.v1H3hVfgFqNsCz6nPUrpoYHhUGjr3EmedcsgR5uTIX"
    + "tZkY1llTGBXyy-pmLURV6ux0E71SzZAon0RJYt0wJrmA"
  static let lineWrongIssuer =
    "eyJhbGciOiJFUzI1NiIsImtpZCI6ImxpbmUtZWMtMSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2FjY2V"
    + "zcy5saW5lLm1lLmV2aWwudGVzdCIsInN1YiI6IlUxMjM0NTY3ODkwYWJjZGVmMTIzNDU2Nzg5MGFiY2RlZiIsImF"
    + "1ZCI6IjE2NTYwMDAwMDAiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMzYwMCwibm9uY2UiOiJsaW5lLW5"
    + "vbmNlIiwiYW1yIjpbImxpbmVzc28iXSwibmFtZSI6IlRhcm8iLCJwaWN0dXJlIjoiaHR0cHM6Ly9wcm9maWxlLmx"
    + "pbmUtc2Nkbi5uZXQvdTEiLCJlbWFpbCI6InRhcm9AZXhhbXBsZS5qcCJ9.4tGtlTIGSt35nqACrY7MNo98eHKtk0"
    + "EUtwcsg05ctCtz1TNU4sFz3KNzhsxYEvlh6WLh1s8BpeAq2SdHYXDpyA"
  static let lineExpired =
    "eyJhbGciOiJFUzI1NiIsImtpZCI6ImxpbmUtZWMtMSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2FjY2V"
    + "zcy5saW5lLm1lIiwic3ViIjoiVTEyMzQ1Njc4OTBhYmNkZWYxMjM0NTY3ODkwYWJjZGVmIiwiYXVkIjoiMTY1NjA"
    + "wMDAwMCIsImlhdCI6MTY5OTk5MDAwMCwiZXhwIjoxNjk5OTkzNjAwLCJub25jZSI6ImxpbmUtbm9uY2UiLCJhbXI"
    + "iOlsibGluZXNzbyJdLCJuYW1lIjoiVGFybyIsInBpY3R1cmUiOiJodHRwczovL3Byb2ZpbGUubGluZS1zY2RuLm5"
    + "ldC91MSIsImVtYWlsIjoidGFyb0BleGFtcGxlLmpwIn0.XZUWCli3ePV6AaLeTCqUFItjh0EJXavaZQjFa9vASIn"
    + "vIDrfThZm2g_YT8ikA2fv8pxQmEH_qy8HTK1tzGVzqg"
}
