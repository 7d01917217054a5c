/// Where a described provider's stable subject and profile fields are.
///
/// The subject and fields are read from the profile endpoint's answer when
/// ``endpoint`` is set, else from the ID token's claims. A subject that is a JSON number is
/// kept as its decimal text, exactly.
public struct IdentityRules: Hashable, Sendable, Codable {
  /// A check of an answer's envelope before anything is read from it: NAVER's profile
  /// answers `{"resultcode":"00",...}` on success and another code with status 200 on some
  /// failures.
  public struct Envelope: Hashable, Sendable, Codable {
    /// Where the result code is.
    public var pointer: JSONPointer
    /// The value that means success.
    public var success: String

    /// Creates the check.
    public init(pointer: JSONPointer, success: String) {
      self.pointer = pointer
      self.success = success
    }
  }

  /// A list of addresses on its own endpoint (GitHub's `/user/emails`): the one marked
  /// primary is the user's email, verified when its flag says so.
  public struct EmailList: Hashable, Sendable, Codable {
    /// The endpoint's name.
    public var endpoint: String
    /// Within an entry: the address.
    public var address: JSONPointer
    /// Within an entry: whether it is the primary address.
    public var primary: JSONPointer
    /// Within an entry: whether it is verified.
    public var verified: JSONPointer

    /// Creates the rule with GitHub's field names.
    public init(
      endpoint: String, address: JSONPointer = "/email", primary: JSONPointer = "/primary",
      verified: JSONPointer = "/verified"
    ) {
      self.endpoint = endpoint
      self.address = address
      self.primary = primary
      self.verified = verified
    }
  }

  /// The profile endpoint's name, fetched with the access token as a bearer token; `nil`
  /// reads the ID token's claims only.
  public var endpoint: String?
  /// The envelope check of the profile answer, if any.
  public var envelope: Envelope?
  /// The stable subject: a string, or an integer kept as its exact decimal text.
  public var subject: JSONPointer
  /// The display name; the first pointer that selects a non-empty string wins.
  public var name: [JSONPointer]
  /// The email address.
  public var email: JSONPointer?
  /// Pointers that must all select `true` for the email to count as verified; empty means
  /// the provider never says (NAVER), and the email is unverified.
  public var emailVerified: [JSONPointer]
  /// The picture URL.
  public var picture: JSONPointer?
  /// Where the email comes from when it is a list on its own endpoint.
  public var emails: EmailList?
  /// How the stored ID token's claims join a profile endpoint's answer; `nil`: they do not
  /// (the profile alone names the user). Optional so that descriptions written before it
  /// still decode.
  public var idTokenClaims: IDTokenClaimsUse?

  /// How an ID token's claims join the profile endpoint's answer.
  public enum IDTokenClaimsUse: String, Hashable, Sendable, Codable {
    /// The ID token's standard claims (`name`, `email`, `picture`) fill in what the profile,
    /// read with this description's own pointers, lacks, and are kept under it in the raw
    /// claims: LINE's `/v2/profile` has no email, which only its ID token carries.
    case completeProfile
    /// The identity is read from the ID token's claims merged with the profile's answer (the
    /// profile's value wins), as OpenID Connect's userinfo completes an ID token with the same
    /// claim names (Google's `hd` is read from either).
    case mergeWithProfile
  }

  /// Creates the rules.
  public init(
    endpoint: String? = nil,
    envelope: Envelope? = nil,
    subject: JSONPointer = "/sub",
    name: [JSONPointer] = ["/name"],
    email: JSONPointer? = "/email",
    emailVerified: [JSONPointer] = ["/email_verified"],
    picture: JSONPointer? = "/picture",
    emails: EmailList? = nil,
    idTokenClaims: IDTokenClaimsUse? = nil
  ) {
    self.endpoint = endpoint
    self.envelope = envelope
    self.subject = subject
    self.name = name
    self.email = email
    self.emailVerified = emailVerified
    self.picture = picture
    self.emails = emails
    self.idTokenClaims = idTokenClaims
  }
}
