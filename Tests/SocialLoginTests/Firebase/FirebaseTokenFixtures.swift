// Generated once with Python `cryptography` 48 (RSA-2048 keys, self-signed x509 certificates,
// RS256 over the compact JWS signing input); the private keys were thrown away. Claims are
// relative to ManualClock's default wall time, 1_700_000_000.
enum FirebaseTokenFixtures {
  static let projectID = "demo-project"
  /// The certificate of `key-1`, which signed every token but `wrongKey` and `garbageKeyToken`.
  static let certificate1 = """
    -----BEGIN CERTIFICATE-----
    MIIC7jCCAdagAwIBAgIUJAVcCzkCpg6a2PDJ5R+Fgw61zPswDQYJKoZIhvcNAQEL
    BQAwMTEvMC0GA1UEAwwmc2VjdXJldG9rZW4uc3lzdGVtLmdzZXJ2aWNlYWNjb3Vu
    dC5jb20wHhcNMjMwMTAxMDAwMDAwWhcNMzMwMTAxMDAwMDAwWjAxMS8wLQYDVQQD
    DCZzZWN1cmV0b2tlbi5zeXN0ZW0uZ3NlcnZpY2VhY2NvdW50LmNvbTCCASIwDQYJ
    KoZIhvcNAQEBBQADggEPADCCAQoCggEBAJ9M5C+Gz1qvuVZt7MZwPOeFUSWGfF4C
    E3MdvnCFU2WwWBVDzLtN2faLTusMC1KdiqjZ3DSNkth3Cz3R5tPBOEbCN1Ndn76Q
    3QVJxcQldMn0TEWRS11txUABmXMsj2FhoZTPWm6xJR212EyygYUgL7WHH1rKWLiH
    SyLp6ddTO6ACtL23kY8xoSoW6JDyGcgaVvXr41TFOFH9okjYjthwQbshhbGAUotG
    ToZQQuH9WPQAZFKa7Sc3kwE+eEA6rNLW4q8uEXSaWeu5nAlyB4GK/So0yolX+0dj
    4frQImSdIlX6r7bpx3T4INsA63ycpbOMHBT9A+m2W8T+fFCN5jPAfsECAwEAATAN
    BgkqhkiG9w0BAQsFAAOCAQEAGJc+Ich1kR8nDksp3YE/Cwub2zhaDsAy8WLufkNw
    40tWiyaB7gIVtd4b3GHFAFS24wgEW6tPwRnxVv92sCLJpub7+t2k6Z4pefzdE7Il
    D0ijNtNoOr9qefOeEUt/kSDkear46o/pqzSlcTeBGWi2il5OrM7VA1b1/cvG7mcU
    8hpD8CnOewxXayi2OYWDcfvflD4Atm2rt+VBWDT5xEMIG+6So7t42NnDfZUkGSx+
    jJWmCoFYuDWCkf0Y41Bz+A7KmYBCuCJpkJmbHTdavuaEULwi/I08Pppu5RxGVFYi
    d+QeV8E2mZ99br2e01AsaW8tyKOzaPelL9PaPaJSp7/I4Q==
    -----END CERTIFICATE-----
    """
  /// The certificate of the other key.
  static let certificate2 = """
    -----BEGIN CERTIFICATE-----
    MIICrDCCAZSgAwIBAgIUVw7FFPwj0elzHl6XDmQJJZIv5KowDQYJKoZIhvcNAQEL
    BQAwEDEOMAwGA1UEAwwFb3RoZXIwHhcNMjMwMTAxMDAwMDAwWhcNMzMwMTAxMDAw
    MDAwWjAQMQ4wDAYDVQQDDAVvdGhlcjCCASIwDQYJKoZIhvcNAQEBBQADggEPADCC
    AQoCggEBANw0SEnQEY4XRe6MQr7FRxGt5VTokPaY+04NAh+HVLTfsmPgLbYZWBR7
    kUQEgolVet7mp0lKO5zWpAgNUzAPLkuR0RKzZZGbnw4HoauyoTW+FrWE/WbONmgK
    DOvvlMIkjSKt88z9oToblzq6BJnLcF0jGuPLl3QLaMzrHFWluq40ztZecS/ByUnL
    5tOmLxGMHmXuKgZ6AyoWWZpJKCx4mb0OEvZhj1n2Zk2ygk4g2YJSCLOyX+b2eXpR
    /dtREVtaAO8WlY84FP11aDtV5h51YNFhaYiVdxmZWl1CHip6ShtyJNwnc+c1QleD
    3TTOA5aLUtQ4OkqVeds+dVDh+XW7hJUCAwEAATANBgkqhkiG9w0BAQsFAAOCAQEA
    EEDgyyxQeAc3z6ftHk3+HZ79nezyanBCmgJjqRtLhDNYREdQJPYnQfDAsFX3nYIS
    qVTlV3yYq8sipzwFf7jec/PtfxMuz4z2M4BAwu9C26ynK8OI9flndxOPkJtoEmF/
    y0dkatp4Kb7ygpu4tsIncOnXB9O9F3VSoNBBP+IihjCAdDGw1QTTcNrMYommr14n
    zxza0XwwiV/HLK/DaWTWKEloBTDiGJjr6BzWCE2mpd7ZdqF64iLAFwiAtUaL3yZJ
    toxcPrNxJ4xMi72oJbRF9APBxa5dRmK8vY+zMYoReTkXNCjpoPR2eqMRNGdro8NB
    2tLVwq8XOTH+LqUXepBlfQ==
    -----END CERTIFICATE-----
    """
  /// `certificate2`'s DER with bytes after the certificate, re-encoded as PEM.
  static let certificate2WithTrailingGarbage = """
    -----BEGIN CERTIFICATE-----
    MIICrDCCAZSgAwIBAgIUVw7FFPwj0elzHl6XDmQJJZIv5KowDQYJKoZIhvcNAQEL
    BQAwEDEOMAwGA1UEAwwFb3RoZXIwHhcNMjMwMTAxMDAwMDAwWhcNMzMwMTAxMDAw
    MDAwWjAQMQ4wDAYDVQQDDAVvdGhlcjCCASIwDQYJKoZIhvcNAQEBBQADggEPADCC
    AQoCggEBANw0SEnQEY4XRe6MQr7FRxGt5VTokPaY+04NAh+HVLTfsmPgLbYZWBR7
    kUQEgolVet7mp0lKO5zWpAgNUzAPLkuR0RKzZZGbnw4HoauyoTW+FrWE/WbONmgK
    DOvvlMIkjSKt88z9oToblzq6BJnLcF0jGuPLl3QLaMzrHFWluq40ztZecS/ByUnL
    5tOmLxGMHmXuKgZ6AyoWWZpJKCx4mb0OEvZhj1n2Zk2ygk4g2YJSCLOyX+b2eXpR
    /dtREVtaAO8WlY84FP11aDtV5h51YNFhaYiVdxmZWl1CHip6ShtyJNwnc+c1QleD
    3TTOA5aLUtQ4OkqVeds+dVDh+XW7hJUCAwEAATANBgkqhkiG9w0BAQsFAAOCAQEA
    EEDgyyxQeAc3z6ftHk3+HZ79nezyanBCmgJjqRtLhDNYREdQJPYnQfDAsFX3nYIS
    qVTlV3yYq8sipzwFf7jec/PtfxMuz4z2M4BAwu9C26ynK8OI9flndxOPkJtoEmF/
    y0dkatp4Kb7ygpu4tsIncOnXB9O9F3VSoNBBP+IihjCAdDGw1QTTcNrMYommr14n
    zxza0XwwiV/HLK/DaWTWKEloBTDiGJjr6BzWCE2mpd7ZdqF64iLAFwiAtUaL3yZJ
    toxcPrNxJ4xMi72oJbRF9APBxa5dRmK8vY+zMYoReTkXNCjpoPR2eqMRNGdro8NB
    2tLVwq8XOTH+LqUXepBlfQABZ2FyYmFnZQ==
    -----END CERTIFICATE-----
    """
  static let good = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5
    MDAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE2OTk5OTkwMDAsImV4cCI6MTcwMD
    AwMjYwMCwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsi
    aWRlbnRpdGllcyI6eyJmYWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sIn
    NpZ25faW5fcHJvdmlkZXIiOiJmYWNlYm9vay5jb20ifX0.fl1VyS0p2yEGnaNidX-b5jim0tKgpcs6YPcjwh9qiEcc
    E_w7ir-XHahH6BNypufD2LcWDzNwEyN-CCnzy0xdtbUL1KOM2y7-rHC3JnKMu3mXVGEzWIe9uA9y__fEZbUSV_idTz
    3l2m38t5EDIEHufAiF3Hr0Qqq_7Xl1pMgrqbYBo_0Rdg6OQrvkhHkndiT1Ew9iPQw2yIRl4rj97kswWpEtXvkJ1Et6
    BP6bA_JN-GnlEY4g_UisffAbXgiv4jvChJSNBF_z_GeKjIv9Jh5TVbwNJmCXYFE_sVvaCxiTGXq7CSg-CDAT1UXecx
    iIWg12G5PKv-BxRwwpKuWbtTk5bA
    """)
  static let expired = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTkw
    MDAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE2OTk5OTAwMDAsImV4cCI6MTY5OT
    k5MzYwMCwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsi
    aWRlbnRpdGllcyI6eyJmYWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sIn
    NpZ25faW5fcHJvdmlkZXIiOiJmYWNlYm9vay5jb20ifX0.DnsLLoh5MAkDyWiHfuqKbHtbK042rONw6_P39LMaBD2P
    RkCNmGWFZVXLsEw3w4ZTATHjI7MYhl9KEMgMwgiM9QIZRsH7IOO4vRK6ELdAMU3ZAphOdlM8vzkpKZSMmMwTyR0Opp
    XUVOU61SICMATXK92NqX_574Fuc_fRKeUKH3iLN4sC2DDSA7nIC407sgbX-Inv0TexMn7-l5fR_wi5GG9IIJqm080s
    AelzjAIzDHHATpq5eY61LxoPt3vygNZuU1HaanBcLYmkyQfsmD3gRjCEUwoT2DeMKMCYGdZxzpHzjAmcaZrkkDRjmf
    598nnbUfEBPgbVXhZN1mwSBW8l2w
    """)
  static let futureIat = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5
    MDAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE3MDAwMDA2MDAsImV4cCI6MTcwMD
    AwNDIwMCwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsi
    aWRlbnRpdGllcyI6eyJmYWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sIn
    NpZ25faW5fcHJvdmlkZXIiOiJmYWNlYm9vay5jb20ifX0.hhxKqYngBXfhkSEWAKYC6h11g23yO6I5pzDEa9stRnbS
    8W_cItlIr3RJtCvul84kG2WXT_klk8g7rySRAMvl9txi8h6HjtrfslwXCBMixdHurSJIDG8KrJVJke8l1K3RR1DyDa
    MNgmIYgk1Nfspy8T-FfpCXCLDwr5xB6umJ91q28RHArfTavFa4QGfIJT_25gOuLqcqPpjGtcty6RZGid9EcBCTOJ55
    hdG9iKRCRa-pAK0yBP9v1WrJdyER84f7HK2Blj7_E2xYo-x8w-f4bfyGH2L6TygJvHVgagUhy0gEhE61UfXq-HZ1KW
    2Fl8wfFA4npQakK_Sv1_XMDQhaJQ
    """)
  static let futureAuthTime = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNzAwMDAw
    NjAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE2OTk5OTkwMDAsImV4cCI6MTcwMD
    AwMjYwMCwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsi
    aWRlbnRpdGllcyI6eyJmYWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sIn
    NpZ25faW5fcHJvdmlkZXIiOiJmYWNlYm9vay5jb20ifX0.PxD30uQXu69wej-jnHCM_FFmxO7nswprvUu1pQ8ZeLKr
    qUPkJwBXoYsBgMQhSATdkPFxj9OrW4VO2LdXS-iHhUFq93X-x66f6EWkFzUNFuMqP9XMkC6CyXpNRCIaX9crBS3ggp
    Ms-Hai-eEpFLXLLgb7rrp5WGeZHHiIOFBM146V1MQOARNKWbkFXSIxDRCkiyG1-1KctRWqiUUNbSHOEMCNSLBYWIpg
    F6oPlp50X54gMeKUonbtYZpbfKpuc7Eo7dwX0yv3KWKrmUMKS-8EipCeCNAESHOmarKNDxfO1oKRR8-dIjMBg8LX3q
    UI3c-PWL-i26SOo7q4sohQauToiw
    """)
  static let wrongProject = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vb3RoZXItcHJvamVjdCIsImF1ZCI6Im90aGVyLXByb2plY3QiLCJhdXRoX3RpbWUiOjE2OTk5
    OTkwMDAsInVzZXJfaWQiOiJ1aWQtMTIzIiwic3ViIjoidWlkLTEyMyIsImlhdCI6MTY5OTk5OTAwMCwiZXhwIjoxNz
    AwMDAyNjAwLCJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsImVtYWlsX3ZlcmlmaWVkIjp0cnVlLCJmaXJlYmFzZSI6
    eyJpZGVudGl0aWVzIjp7ImZhY2Vib29rLmNvbSI6WyJmYi0xIl0sImVtYWlsIjpbImFkYUBleGFtcGxlLmNvbSJdfS
    wic2lnbl9pbl9wcm92aWRlciI6ImZhY2Vib29rLmNvbSJ9fQ.jP0CeduapCJJ_KmvqNfJmcso5m93FEOy_0rbzXezH
    jWG9ynr38z5p1wPm1G89dAkx5qe7I4noS2mniuRg4yxWh_Zkc3mOyF5F_u0_Bj804ZnyMQOhDeQKneU5qJXiXKsOIR
    VU7sDGgPPQLghMQMLd2MqUBIk2pi1iUgr_yPQnwaQgqld64pCO1HcY0Iy3__5Vnyf0CVHZTcL2keWYbiCwqe7q40yx
    vY4fEblU4-z7hDkaUSbyWcR-_W7eQgamUECSKSf_BG0rRR8DrKGOYqM62V_M_XllKE0m3oNQoIDmmzugHX30NZbY62
    Gi4LfYtq4858RnJ8xJPCommuyrg-KbQ
    """)
  static let wrongAudience = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoib3RoZXItcHJvamVjdCIsImF1dGhfdGltZSI6MTY5OTk5
    OTAwMCwidXNlcl9pZCI6InVpZC0xMjMiLCJzdWIiOiJ1aWQtMTIzIiwiaWF0IjoxNjk5OTk5MDAwLCJleHAiOjE3MD
    AwMDI2MDAsImVtYWlsIjoiYWRhQGV4YW1wbGUuY29tIiwiZW1haWxfdmVyaWZpZWQiOnRydWUsImZpcmViYXNlIjp7
    ImlkZW50aXRpZXMiOnsiZmFjZWJvb2suY29tIjpbImZiLTEiXSwiZW1haWwiOlsiYWRhQGV4YW1wbGUuY29tIl19LC
    JzaWduX2luX3Byb3ZpZGVyIjoiZmFjZWJvb2suY29tIn19.VeqTeQQhTnsCDBrMCX0xfsCQe0gLsv5YJuPZwt6wM9o
    I5uHh4uYIKTVGcA9j8VM3Thm1tn9pyQ57vIdpAqSZ5nvQbB6uBSVze4RiWCK_QjPj5U9ibpXIvmtgXqvlqDZJ8nVyV
    g5CJJsAw9Bq6AZ5YjEM00S3AjnC3jfQPX4NgOIperhX2wWzeIHoIEfcUSdtyYC59zwctfPLrPhs2hb4hB9YRiFHRqt
    KvBeX8gKZkK4xDenrQOJpBiybDxtUOVvq5TAVXclH-URJv17rO3lvR2SgFMzeOUf_8qYylzaj3TYojcJCsdICei5ly
    PuJJHs9pU9_4_sjzEIHHZozjffsAw
    """)
  static let wrongKey = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5
    MDAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE2OTk5OTkwMDAsImV4cCI6MTcwMD
    AwMjYwMCwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsi
    aWRlbnRpdGllcyI6eyJmYWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sIn
    NpZ25faW5fcHJvdmlkZXIiOiJmYWNlYm9vay5jb20ifX0.tNAceaX76ZLfS6Bv_qjm17ARgDy9cpnMuI44RV339UoW
    AOfuprWBhxBXRXV7eDZMw07_PVn40Uos2-llXoswohIOb45-_MmMmAcfCECdrwQLyeIrMw-GtN4RFVJ1yzru-ASMpK
    IvEnaRzDiSqdYMOvMiOZPfPKJJWGQ1zmZxqJBHzHSK0Tdx2dCFlXeqtn-wbDPE0WaZCTBR2hC42quLGjvS0nFPNbRo
    GCM3kIu-NF3NCMD5J0LU29w_rkVD1S5j1rDj3jKObfVWLYKNS_HO01XmqZ65y9p-jXDgkft5bJ5rKKlxP-2BF-XJsF
    PvOwJMIySRQPFAH-y4c6m16bZuOg
    """)
  static let missingKid = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2VuLmdvb2dsZS5jb20vZ
    GVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5MDAwLCJ1c2VyX2lkIjo
    idWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE2OTk5OTkwMDAsImV4cCI6MTcwMDAwMjYwMCwiZW1haWwiO
    iJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsiaWRlbnRpdGllcyI6eyJ
    mYWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sInNpZ25faW5fcHJvdmlkZ
    XIiOiJmYWNlYm9vay5jb20ifX0.kKBJ5t81DgcNyF03cyf4uuFdNwd55JW_lu3aLqwEJ10qh78gmxriMM7UDiwdcPY
    TAL_SVelARrUTWCiupe8-OyiMN3hVMkbeKvU9woc--V9Bx3fZ33dnPSSCCFmuavewmOJGZRvSQ2mx3tzf8jKYdn-WJ
    BypIvpEcPbsadbplTyp6HhHh3eLPvLkU_Mk-FFozWJhYisfz1B2iKJy3KPvkytmtJSxohI6NGHQ-bgHEkIhQUkKN80
    G4Nuf-lsy5mKyX7ld2TJB-IicP920bw6cEqpnV1Ar6O-ikoKpBjTTpk8j_558RQAmzQ-9TIIUz_H54Jzx1o4NUPnMA
    VmrRVavjg
    """)
  static let unknownKid = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS05IiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5
    MDAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE2OTk5OTkwMDAsImV4cCI6MTcwMD
    AwMjYwMCwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsi
    aWRlbnRpdGllcyI6eyJmYWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sIn
    NpZ25faW5fcHJvdmlkZXIiOiJmYWNlYm9vay5jb20ifX0.kcXf3B-JNGI96MrO05hJQkNbyLqsyKcOfQaFFx7h8pxk
    91fC-7TtONdcg1S295SGAtTVX9od8f96ro0M1JgCwLhgscUL8ACC8AuWwDdV7nUzrou-TemNcQH6bHjYUnYv8tkR2Z
    sXSOnxtfV_gtXRKkIgA9yeqXO8VEJVkl7l-Su0VPl_zwoK9hxqn_Yf4YnnpoEWmwQheetuxsYbgBzaFEJaA82XHpcM
    0w4wIDZWOUSe7y-PRos9p9d2VssnWnddBi1EpQQ7Iq3zsxERYhLWvvyKYA2xAuDPAq01e5qq3LU9-ECNbKb6UOeprb
    z_OdD6oBlVrbzgIkwTMYxZPWGuFg
    """)
  static let longSubject = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5
    MDAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6InV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dX
    V1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1
    dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dSIsImlhdCI6MTY5OTk5OTAwMCwiZXhwIjoxNzAwMDAyNjAwLCJlbWFpbC
    I6ImFkYUBleGFtcGxlLmNvbSIsImVtYWlsX3ZlcmlmaWVkIjp0cnVlLCJmaXJlYmFzZSI6eyJpZGVudGl0aWVzIjp7
    ImZhY2Vib29rLmNvbSI6WyJmYi0xIl0sImVtYWlsIjpbImFkYUBleGFtcGxlLmNvbSJdfSwic2lnbl9pbl9wcm92aW
    RlciI6ImZhY2Vib29rLmNvbSJ9fQ.T91XKJZ7dcymp2GyJfDgMC_gi898AYXjJ0nBSmtgLBJFduRrrWrRRcEI8CtrB
    r-qMGpGHbC8ZG4ILCBeP4LulnRNOp0oA8m39UAuBwHrhoJi9JrtxV9UHSTN0dILACYoi_q7iIh0lTKLAs1zl7O1r5r
    lZBMJ0FkgFYpkhf86MTh3-Q8JlhS3doncTsu1bxnQNydSrPNmeBMouVDLMoMvtULF41gHR_O8S6IQM3rdXJt6w5pUC
    E3AdxjxCsO64qNJMCxXoGOPxyNqO40qIMPzVE0eZ5_uaR3lnSO3iyafBI67bmdGSvc0NWgJITCBefrD90souxWjX8F
    25dpFeYUhiw
    """)
  static let emptySubject = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5
    MDAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6IiIsImlhdCI6MTY5OTk5OTAwMCwiZXhwIjoxNzAwMDAyNjAwLC
    JlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsImVtYWlsX3ZlcmlmaWVkIjp0cnVlLCJmaXJlYmFzZSI6eyJpZGVudGl0
    aWVzIjp7ImZhY2Vib29rLmNvbSI6WyJmYi0xIl0sImVtYWlsIjpbImFkYUBleGFtcGxlLmNvbSJdfSwic2lnbl9pbl
    9wcm92aWRlciI6ImZhY2Vib29rLmNvbSJ9fQ.FdE5ZvWn9_vZu-p6mS2Z33ucSfgxwnq7cdc0jK2qWoCirwvjH_Nsz
    NMbtNCEZrFkRaJIZp3eSfcNBViUTmZe3gi9kIPnLjTq8S-vB2fhoZDIOhE6fLDaAbEPvSuAIzHsiyfMuYyqWXp6a1d
    fA2Mjo1_MQbWwCmRUaLzEs6JqyUN5CwZQwIkGk7KO5Qs7CinI_TOlTVnV_ZNiSdVNNbgoCQuISidEKprw0PC7OkJDv
    mROfkYNfb443wdiMF9j71MqgW1PJ052kn3eTYQ1juJQWkLT1XaqalzOPI3dan0SMZHXiMIqavOkt7q722edumf8rYl
    8b7-HOKwdsxVDxdW3Xw
    """)
  static let garbageKeyToken = unwrap(
    """
    eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0yIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2
    VuLmdvb2dsZS5jb20vZGVtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5
    MDAwLCJ1c2VyX2lkIjoidWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE2OTk5OTkwMDAsImV4cCI6MTcwMD
    AwMjYwMCwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsi
    aWRlbnRpdGllcyI6eyJmYWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sIn
    NpZ25faW5fcHJvdmlkZXIiOiJmYWNlYm9vay5jb20ifX0.qpS9LMISF6ZeEGx1wqvQ5mcceOVpXldhhLqzhUq6s5PZ
    4hHszGF89bWCGFBzopncc0kqPpwjbSObn-ApKn_JmgZPKLZwTtR2bNqw3GRWC9SubGN2fbjxbQMfrF5LeDhiAmGALk
    43oJMrpjC5PfL5a_2_88wzRGicTNXCxiB-MEqbu0807hC-y52mnZcllixIkjoDkpP4WuEubxE3m0BxQS-zLw55fMia
    Oj-rQ-S9Z3VbnqcJub7TpKJr0Y9sykcRamgnDHDtE4R89cbLo1qMnYc5zJWPFA7p2OeilyPXU9O2EdK-576Jv8vmBQ
    phFzcR0qwFVUmcu5cwactweCb3Hg
    """)
  static let unsigned = unwrap(
    """
    eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL3NlY3VyZXRva2VuLmdvb2dsZS5jb20vZG
    Vtby1wcm9qZWN0IiwiYXVkIjoiZGVtby1wcm9qZWN0IiwiYXV0aF90aW1lIjoxNjk5OTk5MDAwLCJ1c2VyX2lkIjoi
    dWlkLTEyMyIsInN1YiI6InVpZC0xMjMiLCJpYXQiOjE2OTk5OTkwMDAsImV4cCI6MTcwMDAwMjYwMCwiZW1haWwiOi
    JhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiZmlyZWJhc2UiOnsiaWRlbnRpdGllcyI6eyJm
    YWNlYm9vay5jb20iOlsiZmItMSJdLCJlbWFpbCI6WyJhZGFAZXhhbXBsZS5jb20iXX0sInNpZ25faW5fcHJvdmlkZX
    IiOiJmYWNlYm9vay5jb20ifX0.
    """)
  /// The token text without the line breaks that keep the fixtures readable.
  private static func unwrap(_ text: String) -> String { text.filter { !$0.isWhitespace } }
}
