// A thin layer over SQLite's C API for the SQLite backend: a connection, prepared statements
// kept for reuse, and errors as values. This is the one file that imports CSQLite.

import KeptRules
import KeptDomain
import KeptFiles

import CSQLite

/// What SQLite said went wrong: its result code and message.
package struct SQLiteError: Error, Sendable {
    package var code: Int32
    package var message: String

    /// The file is not a database, or a page of it is damaged.
    package var isDamage: Bool { code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB }
    /// Another connection holds a lock past the busy timeout.
    package var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    /// A call on a connection already closed.
    package static let closed = SQLiteError(code: SQLITE_MISUSE, message: "the store was closed")
    /// Damage Kept found itself (a record, a checksum), not SQLite.
    package static func damage(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_CORRUPT, message: message) }
}

/// One SQLite connection.
package final class SQLiteDatabase {
    private let db: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]
    /// Set by `close`: the handle is gone, and every later call fails (SQLITE_MISUSE).
    private(set) var isClosed = false

    private init(_ db: OpaquePointer) { self.db = db }

    deinit { close() }

    /// Opens a database file read-write, creating it only with `create`; `readOnly` opens it
    /// for reading alone (SQLite then never writes the file, nor checkpoints its -wal into it).
    package static func open(_ path: String, create: Bool, readOnly: Bool = false) -> Result<SQLiteDatabase, SQLiteError> {
        _ = configured
        var h: OpaquePointer? = nil
        let mode = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let flags = mode | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &h, flags, nil)
        guard rc == SQLITE_OK, let h else {
            let msg = h.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let h { sqlite3_close_v2(h) }
            return .failure(SQLiteError(code: rc, message: msg))
        }
        sqlite3_extended_result_codes(h, 1)
        return .success(SQLiteDatabase(h))
    }

    /// SQLite configured once, before its first connection.
    private static let configured: Int32 = kept_sqlite_configure()

    /// Closes the connection: its statements are finalized and, when it is the last one on the
    /// file, SQLite checkpoints the -wal into the database and removes it (docs/STORE.md, "Copying
    /// and restoring a store"), unless `keepWALOnClose` said not to.
    package func close() {
        guard !isClosed else { return }
        for s in cache.values { s.finalize() }
        cache = [:]
        sqlite3_close_v2(db)
        isClosed = true
    }

    /// Tells SQLite not to checkpoint at close: a database found damaged is never written, not
    /// even by the checkpoint that would copy a -wal that does not belong to it into it.
    package func keepWALOnClose() {
        guard !isClosed else { return }
        _ = kept_sqlite_no_checkpoint_on_close(db)
    }

    /// Copies this whole database into `dest` with SQLite's online backup API: a consistent
    /// copy as of one read transaction, whatever other connections do meanwhile.
    package func backup(into dest: SQLiteDatabase) throws(SQLiteError) {
        guard !isClosed, !dest.isClosed else { throw SQLiteError.closed }
        guard let b = sqlite3_backup_init(dest.db, "main", db, "main") else { throw dest.error(sqlite3_errcode(dest.db)) }
        let rc = sqlite3_backup_step(b, -1)
        let done = sqlite3_backup_finish(b)
        guard rc == SQLITE_DONE else { throw dest.error(rc) }
        guard done == SQLITE_OK else { throw dest.error(done) }
    }

    package func error(_ rc: Int32) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(db)))
    }

    /// Runs SQL without results (several statements allowed).
    package func exec(_ sql: String) throws(SQLiteError) {
        guard !isClosed else { throw SQLiteError.closed }
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc) }
    }

    /// A prepared statement for `sql`, made once and reused (reset, bindings cleared).
    package func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        guard !isClosed else { throw SQLiteError.closed }
        if let s = cache[sql] {
            s.reset()
            return s
        }
        var st: OpaquePointer? = nil
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &st, nil)
        guard rc == SQLITE_OK, let st else { throw error(rc) }
        let s = SQLiteStatement(st, self)
        cache[sql] = s
        return s
    }

    /// The first column of the first row of a query, as an integer (nil for no row or NULL).
    package func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let s = try statement(sql)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return s.isNull(0) ? nil : s.int(0)
    }

    package func text(_ sql: String) throws(SQLiteError) -> String? {
        let s = try statement(sql)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return s.text(0)
    }

    package func busyTimeout(_ ms: Int32) { sqlite3_busy_timeout(db, ms) }

    package var isInTransaction: Bool { !isClosed && sqlite3_get_autocommit(db) == 0 }

    /// Ends a transaction whatever state it is in; a failure here leaves nothing to undo (SQLite
    /// has already rolled back a transaction an error ended), so it is not reported.
    package func rollbackQuietly() {
        guard isInTransaction else { return }
        _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
    }
}

/// A prepared statement: bind, step, read the columns of the current row.
package final class SQLiteStatement {
    fileprivate let st: OpaquePointer
    private unowned let db: SQLiteDatabase

    fileprivate init(_ st: OpaquePointer, _ db: SQLiteDatabase) {
        self.st = st
        self.db = db
    }

    fileprivate func finalize() { sqlite3_finalize(st) }

    package func reset() {
        sqlite3_reset(st)
        sqlite3_clear_bindings(st)
    }

    package func bind(_ k: Int32, _ v: Int) { sqlite3_bind_int64(st, k, Int64(v)) }
    package func bind(_ k: Int32, _ v: Int64) { sqlite3_bind_int64(st, k, v) }
    package func bind(_ k: Int32, _ v: Int?) {
        if let v { sqlite3_bind_int64(st, k, Int64(v)) } else { sqlite3_bind_null(st, k) }
    }
    package func bind(_ k: Int32, _ v: String?) {
        guard let v else {
            sqlite3_bind_null(st, k)
            return
        }
        var s = v
        s.withUTF8 { b in _ = sqlite3_bind_text(st, k, b.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, Int32(b.count), kept_sqlite_transient()) }
    }
    package func bind(_ k: Int32, bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { b in
            _ = sqlite3_bind_text(st, k, b.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, Int32(b.count), kept_sqlite_transient())
        }
    }

    /// Steps once: true with a row to read, false when done.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(st)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let e = db.error(rc)
        sqlite3_reset(st)
        throw e
    }

    /// Runs a statement that returns no rows.
    package func run() throws(SQLiteError) {
        defer { reset() }
        _ = try step()
    }

    package func isNull(_ c: Int32) -> Bool { sqlite3_column_type(st, c) == SQLITE_NULL }
    package func int(_ c: Int32) -> Int64 { sqlite3_column_int64(st, c) }
    package func text(_ c: Int32) -> String? {
        guard let p = sqlite3_column_text(st, c) else { return nil }
        let n = Int(sqlite3_column_bytes(st, c))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// The bytes of a text column, appended to `out`; false for NULL.
    package func appendBytes(_ c: Int32, to out: inout [UInt8]) -> Bool {
        guard let p = sqlite3_column_text(st, c) else { return false }
        let n = Int(sqlite3_column_bytes(st, c))
        out.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        return true
    }

    /// Calls `body` with the bytes of a text column in place (empty for NULL).
    package func withBytes<R>(_ c: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let p = sqlite3_column_text(st, c) else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(st, c))))
    }

    package func bytes(_ c: Int32) -> [UInt8] {
        var out: [UInt8] = []
        _ = appendBytes(c, to: &out)
        return out
    }
}
