// A -wal file left beside a SQLite store (docs/STORE.md, "Copying and restoring a store"): after
// a crash it holds commits that are the store's own, and SQLite copies it into the database at
// the next checkpoint. One that belongs to another database, or to a newer copy of this one
// that a restored backup replaced, would be copied over the store the same way. So before
// anything may write the store, a leftover -wal is read and refused when it does not belong.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteStore {
    /// What the header and the frames of a -wal say.
    package struct WALHeader: Equatable {
        package var pageSize: Int
        /// The database size, in pages, its last complete commit gives; nil without a commit.
        package var committedPages: Int?
    }

    /// Why the -wal beside `target` does not belong to it, or nil when there is none, it is
    /// empty, or it belongs.
    package static func foreignWAL(_ path: String, _ target: String) -> StoreError? {
        let wal = target + "-wal"
        var st = stat()
        guard stat(wal, &st) == 0, st.st_size > 0 else { return nil }
        func refuse(_ why: String) -> StoreError { .unreadable(.foreignWAL(path: path, wal: wal, reason: why)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return refuse("it is not a regular file") }
        guard let dbHead = Files.head(target, 100), dbHead.count == 100 else { return nil }
        guard let header = readWALHeader(wal) else { return refuse("it is not a SQLite write-ahead log") }
        let raw = Int(dbHead[16]) << 8 | Int(dbHead[17])
        let dbPageSize = raw == 1 ? 65_536 : raw
        guard header.pageSize == dbPageSize else {
            return refuse("its pages are \(header.pageSize) bytes and the database's \(dbPageSize)")
        }
        // Kept never shrinks a database (no VACUUM, no auto-vacuum), so a -wal whose last
        // commit leaves fewer pages than the file has is older than the file: a copy was put
        // back over the store and this -wal is left from before.
        var dst = stat()
        if let pages = header.committedPages, stat(target, &dst) == 0, Int(dst.st_size) / dbPageSize > pages {
            return refuse("it is older than the database: its last commit has \(pages) pages, the file \(Int(dst.st_size) / dbPageSize)")
        }
        // The database as SQLite would read it with this -wal, read without writing anything.
        switch SQLiteDatabase.open(target, create: false, readOnly: true) {
        case .failure(let e):
            return e.isBusy ? nil : refuse(e.message)
        case .success(let db):
            defer { db.close() }
            do throws(SQLiteError) {
                let app = try db.integer("PRAGMA application_id") ?? 0
                let tables = try db.integer("SELECT count(*) FROM sqlite_schema") ?? 0
                if tables > 0, app != applicationID { return refuse("with it the file is a database of another program") }
                if Int(dst.st_size) <= quickCheckBytes {
                    let check = try db.text("PRAGMA quick_check") ?? "ok"
                    if check != "ok" { return refuse("with it the database is damaged: \(check)") }
                }
            } catch {
                return error.isBusy ? nil : refuse(error.message)
            }
        }
        return nil
    }

    /// The header of a -wal and the size its last commit gives, reading only the frames'
    /// headers; nil when it is not a write-ahead log.
    package static func readWALHeader(_ wal: String) -> WALHeader? {
        let fd = openForReading(wal)
        guard fd >= 0 else { return nil }
        defer { closeFile(fd) }
        func read(_ n: Int, at offset: Int) -> [UInt8]? {
            var b = [UInt8](repeating: 0, count: n)
            let got = b.withUnsafeMutableBytes { pread(fd, $0.baseAddress, n, off_t(offset)) }
            return got == n ? b : nil
        }
        func be32(_ b: [UInt8], _ k: Int) -> UInt32 {
            UInt32(b[k]) << 24 | UInt32(b[k + 1]) << 16 | UInt32(b[k + 2]) << 8 | UInt32(b[k + 3])
        }
        guard let h = read(32, at: 0) else { return nil }
        let magic = be32(h, 0)
        guard magic == 0x377F_0682 || magic == 0x377F_0683 else { return nil }
        let pageSize = Int(be32(h, 8))
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return nil }
        let salts = Array(h[16..<24])
        // Frames of this log carry its salts; the first that does not ends it (SQLite stops
        // there too; a frame torn by a crash is caught by its checksum, which is SQLite's to
        // check when it reads the log).
        var committed: Int?
        var offset = 32
        while let f = read(24, at: offset), Array(f[8..<16]) == salts {
            let size = Int(be32(f, 4))
            if size > 0 { committed = size }
            offset += 24 + pageSize
        }
        return WALHeader(pageSize: pageSize, committedPages: committed)
    }
}

// Inside SQLiteStore `open` and `close` name its own methods; these are the system's.
private func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
private func closeFile(_ fd: Int32) { close(fd) }
