// The kept executable: everything happens in KeptCLI.
import KeptCLI

#if canImport(Glibc)
import Glibc
#endif

// A write past the file-size limit (`ulimit -f`) would end the process with SIGXFSZ, half-way
// through a temporary file; ignored, the write fails with EFBIG instead: the store could not
// be written, and is as it was (issue 28, F11).
signal(SIGXFSZ, SIG_IGN)

exit(KeptMain.main(Array(CommandLine.arguments.dropFirst()), raw: KeptMain.rawArguments()))
