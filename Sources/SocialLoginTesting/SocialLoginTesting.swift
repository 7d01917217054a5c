import SocialLogin

/// Test support for code that uses ``SocialLogin``: a manual clock and a scripted transport.
public enum SocialLoginTesting {}
