import Dispatch
import SocialLogin

print("sociallogin-bench \(SDKVersion.current)")
