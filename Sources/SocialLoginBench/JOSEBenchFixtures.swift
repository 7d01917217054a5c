// Fixed keys and tokens for the JWT benchmark: the same values as `JOSEFixtures` in
// Tests/SocialLoginTests/JOSE/JOSEFixtures.swift (generated with Python `cryptography`; see the
// script there). Claims expire in 2100, so the system clock can be used.

enum JOSEBenchFixtures {
  /// RSA-2048 `rsa-1` and P-256 `ec-1`.
  static let jwks = """
    {"keys":[{"kty":"RSA","kid":"rsa-1","use":"sig","n":"vxL67XAtmBuBC4Rcn8DQW8Va2HIvxg_yp\
    OaFEcvBnH3zffVQEzeo-NrJMaeo48K2TC2kE3Il29nSM7pB6NDO5zM9-Qnx-CFHLWuVslH_pggPtMhp8s_A0Vj\
    tZi7svtvOL1bDYWVOsyOaNBL31pfn5Ry5xbaoAxJet-AVuf9znhU4FL1BE-B4z63st0uS_FQnlERmvr7FaoFu2\
    _zAfq_eZg_c2nhxatSql64G685AXDVpya7_PJbQ8euVnpxHd6z339JVhZcZHRlGORP4eJpBc3LVSR9Z49rIZyF\
    FdUQ53FzT5l8pMmwZtIaptLGyyxLCBD2aoHZvqt9gGQWa3_ZbpQ","e":"AQAB"},{"kty":"EC","crv":"P-\
    256","kid":"ec-1","x":"xdd7wOYZDMZWn8ZVrN6GMtYHRePYY3VT8eNUe1w0Gk4","y":"7nVAE6U8gJqDL\
    -Ogb7ZuVEas3oxBC8cJs9Za2Ka8tAU"}]}
    """
  /// RS256 by `rsa-1`.
  static let rs256 = """
    eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIn0.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3\
    ViIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6NDEwMjQ0NDgwMCwi\
    bm9uY2UiOiJuLTBTNl9XekEyTWoifQ.YXBai4M2xjZl0A1N-mlMRQOuaqQJEFlpn2PgV0TM01SYpDvJgGMhGmM\
    B2MU5GJ0FEedlQkeXU_mxSzYScAQHSTw3fFG8TNWdR_GwfwYoElhUhiylSOKhYBXAZuCxm_OPujc0EKObuvFOP\
    0V_EoiUQWkxTolRo4gIfoylrhzH-yVnBNX2Qy62f_zHPfpbM2LgrQfnRC_GQZc3V0EEa1oVdVGPzFzXpS7M3LR\
    Om3xskAO8psTbuP99eY9kjON9tmaHHh7e8oT3L0oWRGdBjdj0qycobDlwPkQTW3QDI8hW2408pb3TZfl1IuvNc\
    XXWjxyVWzXLXFkUNcyq8WvbE06Ujg
    """
  /// ES256 by `ec-1`.
  static let es256 = """
    eyJhbGciOiJFUzI1NiIsImtpZCI6ImVjLTEifQ.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIiwic3V\
    iIjoidXNlci0xIiwiYXVkIjoiY2xpZW50LTEiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6NDEwMjQ0NDgwMCwib\
    m9uY2UiOiJuLTBTNl9XekEyTWoifQ.8EGTixxY_BaB386sAOVSItNIlCyyUXHnYhPmUxO19cuPhSPJo1S3SfQe\
    b1aunNl08FzQ9zGfLH-lOH7IkCpulg
    """
}
