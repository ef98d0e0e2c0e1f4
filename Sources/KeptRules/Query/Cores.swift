// How many processors the machine has online: the one fact the parallel paths (the loader, the
// filter, the writer, a large import) ask of it before splitting work in two.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The processors online.
public enum Cores {
    /// At least 1.
    public static func online() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
