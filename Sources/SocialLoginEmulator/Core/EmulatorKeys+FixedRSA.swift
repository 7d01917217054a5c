import SocialLogin

extension EmulatorKeys {
  /// A fixed 2048-bit RSA key (generated with `openssl genrsa 2048` for this file and public by
  /// being here), used in debug builds, where generating a key takes tens of seconds on a busy
  /// machine and would stall every test that touches Facebook Limited Login or RS256 OIDC.
  /// Release builds generate a key per process instead (`RSAPrivateKey.perProcess`). Emulated
  /// tokens protect nothing either way.
  static let fixedRSAKey: JSONValue = [
    "kty": "RSA",
    "n": .string(
      "3W3XmJyRCj3cSjp9yso4_yms2-xs26CGH2eIzTxHphFg9X_nW4U4BwFey9JGx92IQgZzsH_1xq9tPe0m"
        + "5eTq3pSoXl0dq3nc5EAS7vssDFhfYn8qgfjAn4cXhLfYRQyVf86yxCoB0kOzTkg7LpxVLuvGVqgzU8Iz"
        + "2z1GIrgkD2bcXuhJBZg1DZ-t_7SXALlV6jitBwfJmicuQdf1gJQKu0O3vIwUFMOs2oSn_ZxxALY5ZKAD"
        + "KIsGMjC5NH-AC33SBu62A97Ngg9neXMuRFo727o_m1tp__N4WZUfUg32cuGyITkuC5a7-ylTH6aHS_ft"
        + "AJRen1o5CQaqUqCdQVzTGw"),
    "e": .string(
      "AQAB"),
    "d": .string(
      "ND3EDedyeL4biQ-_ueZ4CAtnEwP2suJugl5E8lb0eIPFImaoyPjnPQ_fs6rKtEDZ8unexZeK_vNIjMG0"
        + "2axmlVjxWEITy-8WZGuRi_yKaec3qd9iwgNUPs76h39wcOoFI4A6wPlAMMF0PlXgUKDloApUYwGQCoTZ"
        + "AzKzp2FWcKNdpQgvitZBgSx2E5cpYgADY-aNRHmf_LWnvheNmkFuar-kLAihZGR39osSRJQY2PdPmWej"
        + "UwEZFpMO3clHrTosoK7BAZCn-L1Je5yK6KMHaLCiQUciyp_oGMJ3WQMLzfB7uJ7Gqn7WN_pVElsi06bO"
        + "qKKdi4C39wiKZ4Kd8s-scQ"),
    "p": .string(
      "8G3tq2gN4LEO4rwnYr3CXljTU6qasfjO91t1LpMXIdIe6g-wAKjaOVQBpddybGLVXw1MtrtzvHg9xylv"
        + "qIRlybOY5ihI93iNdSEYVo_CPmKMD6dHbd0YtCeg3qV_vBNO6AX6EXC4jYii9GDGD4-Cd1BNFjJTlUca"
        + "G2Zp56HtWdc"),
    "q": .string(
      "68ToZM8U1l_YKnbS5E53D1hGsyXOq4JjsoQ_0HevsdcQF59380jY2wVzmOMi8PZ8vdoJaQ8COe_J_lB3"
        + "GTdkbXkPyDyDkKyrd5yiZGKKJeBcdtnLy-TST34KGxDZg7QKgAvoInHqMJYUYFLbeyq7jkSbBhkDRVru"
        + "0b6qcyxwUF0"),
    "dp": .string(
      "V5_ox9iTfjlpcG8cd5srFJGQ62Q5HvXMEFCPw5quCpB23d07yvG_HrekJhoARMo8c3j4ZXyp8J1t_oD2"
        + "hddC9aDz76Xs-exAudiG8z1PkMb_vtC7cqnqz_XFZn-wrw3max-KhQKs8EBFC4WdiZxG808b2SQcXEJe"
        + "nG_V1yqnw18"),
    "dq": .string(
      "1Dv-AvlSxaOjoJ40O6bSkHKjuhK3lzaZ7pIUK-IBu7JgXxODU_Jom8ithZw50PXh1rlWrUcAdwz_JTpj"
        + "68QsWEuZRGQM_wggllze5kS6HVx5f9eRGCsUktBf4ntpgqBor1mIjrFC4pfHIeqUfqw6B9iEQJn1ktJH"
        + "l3HuWB1RwVU"),
    "qi": .string(
      "K-__ti_VqxueeNmYAjBNNraZ3LC-ZhTuGnA6DZWOr7WmGwuMtR31y-CiaEFq7aNjr3JhcSJIaxyYW77t"
        + "omN2DRfF3uXhvQISmgFPOrU9XtckRws5bCGZEuQ2exOO58l9X5FNvQCXcDNolNlzlMavb85nEf29nLFK"
        + "2OaD06en5CM"),
  ]
}
