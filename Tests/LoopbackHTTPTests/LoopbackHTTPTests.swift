import LoopbackHTTP
import Testing
