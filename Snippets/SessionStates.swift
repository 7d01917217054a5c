import SocialLogin

print("SocialLogin \(SDKVersion.current)")
