import SocialLogin

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(CommandRunner.run(Array(CommandLine.arguments.dropFirst()), root: CommandTable.root))
