// Reading and writing the store file. A write goes to a temporary file beside the store, is
// flushed to disk and renamed over the old one (R-STORE-2), so a crash leaves the old store or
// the new one, never half of either; a store that cannot be read is never written over.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// File operations on a store path.
public enum StoreFile {
    /// What loading found.
    public enum Loaded: Sendable {
        /// The file exists and was read.
        case store(Store)
        /// No file there yet: an empty store, which a write will create.
        case missing(Store)
    }

    /// Loads a store; a missing file is an empty store, anything unreadable a `StoreProblem`.
    public static func load(_ path: String) -> Result<Loaded, StoreProblem> {
        switch Files.readBytes(path) {
        case .failure(let e):
            if e.code == ENOENT { return .success(.missing(Store())) }
            if e.refusedUnread { return .failure(.refused(path: path, reason: e.reason)) }
            return .failure(.unreadable(path: path, reason: e.reason))
        case .success(let bytes):
            switch StoreCodec.decode(bytes) {
            case .success(let s): return .success(.store(s))
            case .failure(let e):
                return .failure(.unreadableAt(path: path, text: bytes, offset: e.offset, reason: e.message))
            }
        }
    }

    /// Writes a store durably: temporary file, fsync, rename, fsync of the folder.
    public static func save(_ store: Store, to path: String) -> Result<Void, StoreError> {
        return Files.writeAtomically(pieces: StoreCodec.encodePieces(store), to: path).mapError { .writeFailed(path: path, reason: $0.reason) }
    }

}
