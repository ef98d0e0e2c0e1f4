// The kept executable: everything happens in KeptCLI.
import KeptCLI

#if canImport(Glibc)
import Glibc
#endif

exit(KeptMain.main(Array(CommandLine.arguments.dropFirst()), raw: KeptMain.rawArguments()))
