// `kept check` and `kept backup` on a SQLite store (docs/STORE.md, "Checking a store", "Copying
// and restoring a store"): every page, every record against its checksum, the columns against
// the records, the history, the tombstones and the sync rows; and a copy made with SQLite's online backup API.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteStore {
    /// Everything damaged in the store, each item once; empty for a sound store. Reads only.
    public func checkAll() -> [StoreDamage] {
        do throws(SQLiteError) {
            // integrity_check reads every page and index (quick_check does not match indexes to
            // rows); it lists up to 100 problems, one a row.
            let st = try db.statement("PRAGMA integrity_check(100)")
            defer { st.reset() }
            while try st.step() {
                let line = st.text(0) ?? "?"
                if line != "ok" { damaged(table: "the database", at: nil, line) }
            }
        } catch {
            readFailed(error)
        }
        dropFullView()
        _ = fullStore()
        checkColumns()
        loadedJournal = nil
        _ = history
        _ = allTombstones()
        do throws(SQLiteError) { _ = try readSync() } catch { readFailed(error) }
        return damage
    }

    /// Each task row's lookup columns against what its record gives (lookups, counts in SQL and
    /// merges by uid read the columns, not the record, which the checksum covers).
    private func checkColumns() {
        // The kept counts of each kind (version 4) against the rows.
        if hasPlanColumns {
            do throws(SQLiteError) {
                let st = try db.statement("""
                    SELECT coalesce(c.kind, k.kind) FROM (SELECT kind, count(*) AS n FROM tasks GROUP BY kind) AS c \
                    FULL JOIN (SELECT kind, n FROM task_kinds WHERE n != 0) AS k ON c.kind = k.kind \
                    WHERE c.n IS NOT k.n LIMIT 1
                    """)
                defer { st.reset() }
                if try st.step() { damaged(table: "task_kinds", at: "kind \(st.int(0))", "its count is not the number of its tasks") }
            } catch {
                readFailed(error)
            }
        }
        do throws(SQLiteError) {
            // A version-3 file opened read-only has not the plan's columns (the last two).
            let checked = hasPlanColumns ? SQLiteStore.lookupColumnNames : Array(SQLiteStore.lookupColumnNames.prefix(19))
            let names = checked.joined(separator: ", ")
            let st = try db.statement("SELECT \(names), record FROM tasks ORDER BY id")
            defer { st.reset() }
            var bytes: [UInt8] = []
            let recordColumn = Int32(checked.count)
            while try st.step() {
                bytes.removeAll(keepingCapacity: true)
                _ = st.appendBytes(recordColumn, to: &bytes)
                var r = JSONReader(bytes: bytes)
                do throws(JSONError) {
                    let t = try StoreCodec.decodeTask(&r)
                    var sink = CompareSink(st: st, columns: recordColumn)
                    SQLiteStore.lookupColumns(t, into: &sink)
                    if let k = sink.differs {
                        let name = SQLiteStore.lookupColumnNames[Int(k) - 1]
                        damaged(table: "tasks", at: "row id \(st.int(1))", "its \(name) column is not what its record says")
                    }
                } catch {
                    // Named already by the full read, with its reason.
                    continue
                }
            }
        } catch {
            readFailed(error)
        }
    }

    /// Copies the whole store, as of one moment, into a new database file at `path` (which must
    /// not exist), with no -wal beside it.
    public func backup(to path: String) -> Result<Void, StoreError> {
        let tmp = Files.directory(of: path) + "/.\(Files.basename(of: path)).backup-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        func clean() { for f in [tmp, tmp + "-journal", tmp + "-wal", tmp + "-shm"] { unlink(f) } }
        let dest: SQLiteDatabase
        switch SQLiteDatabase.open(tmp, create: true) {
        case .success(let d): dest = d
        case .failure(let e): return .failure(.writeFailed(path: path, reason: e.message))
        }
        chmod(tmp, 0o600)
        do throws(SQLiteError) {
            try db.backup(into: dest)
            _ = try dest.text("PRAGMA journal_mode=DELETE")
            dest.close()
        } catch {
            dest.close()
            clean()
            return .failure(.writeFailed(path: path, reason: error.message))
        }
        // link() refuses a path that exists, so a file put there meanwhile is never replaced.
        guard link(tmp, path) == 0 else {
            let e = FileError(errno: errno)
            clean()
            return .failure(.writeFailed(path: path, reason: e.reason))
        }
        clean()
        return .success(())
    }
}
