// A large import into an empty SQLite store as a bulk load (docs/STORE.md, "Bulk loads"). The
// import's changes still come one by one through the one change path; what differs is how
// they become SQL: each new row goes in through one insert statement held for the load, in id
// order (the table's rowids follow the ids, so each row is added at the table's end), its
// columns and record written by the same code as any other write (`upsert`); the secondary
// indexes are made after the rows, each in one sort; and while it runs the database has a
// rollback journal instead of its WAL when no other connection has it open, so the rows are
// written once, into the file, instead of into the WAL and again by the checkpoint. All of it
// is the import's one transaction: a refused file, a rollback or a process killed at any
// instant leaves the store as it was (SQLite rolls back the journal a killed process left when
// the store is next opened), and no statement after the commit sees the store without its
// indexes.

import KeptRules
import KeptDomain
import KeptFiles

/// What a bulk load holds while it runs.
package final class BulkLoad {
    /// The insert of a new row, prepared once and held for every row of the load.
    package let insert: SQLiteStatement
    /// Whether the database went from its WAL to a rollback journal for the load (it goes back
    /// after the commit or the rollback).
    package let journal: Bool
    /// Whether the secondary indexes are dropped (the commit makes them again before it commits).
    package var indexesDropped = false
    /// Whether the trigger that counts a new row's kind is dropped (the commit counts the kinds
    /// and makes it again before it commits).
    package var kindTriggerDropped = false

    init(insert: SQLiteStatement, journal: Bool) {
        self.insert = insert
        self.journal = journal
    }
}

extension SQLiteStore {
    /// How many new rows (as an import estimates them) make an import into an empty store a
    /// bulk load.
    package static let bulkRows = 4_096

    /// Page cache for a large import: about 200 bytes a task, at most 128 MB, so the pages of
    /// the indexes a new row goes into at random places (uid) stay in memory. A larger cache,
    /// to hold every page of the load (about 700 bytes a task), took the same time and 50 MB
    /// more at 100,000 tasks: with a rollback journal, pages the cache lets go are written
    /// into the file once, as the commit would write them.
    package static func bulkCacheKB(_ n: Int) -> Int { min(n / 5, 131_072) }

    /// The secondary indexes a bulk load keeps: each holds few rows of a usual file, taken in
    /// id order (subtasks mostly follow their parents), so keeping it costs the load less than
    /// the whole scan of the table that making it again would.
    package static let keptByBulkLoads: Set<String> = ["tasks_parent", "tasks_reminders"]

    /// Set while a bulk load has dropped the secondary indexes of the tasks.
    package var indexesDropped: Bool { bulk?.indexesDropped ?? false }

    /// Room for `n` new rows in this transaction (a large import). The page cache is raised
    /// (a hint: SQLite fills it only as pages are used); into an empty store, with nothing
    /// written yet in this transaction, `n` of at least `bulkRows` starts a bulk load.
    package func beginBulkLoad(_ n: Int) {
        let kb = SQLiteStore.bulkCacheKB(n)
        // A cache that could not be raised only makes the import slower.
        if kb > 2_000 { do throws(SQLiteError) { try db.exec("PRAGMA cache_size = -\(kb)") } catch {} }
        guard n >= SQLiteStore.bulkRows, writing, failure == nil, bulk == nil, !readOnly, taskCount == 0 else { return }
        do throws(SQLiteError) {
            let journal = try useRollbackJournal()
            let b = BulkLoad(insert: try db.statement(SQLiteStore.insertSQL), journal: journal)
            bulk = b
            guard failure == nil else { return }
            for (name, _) in SQLiteStore.taskIndexes where !SQLiteStore.keptByBulkLoads.contains(name) { try db.exec("DROP INDEX \(name)") }
            b.indexesDropped = true
            if try db.text("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'tasks_kind_insert'") != nil {
                try db.exec("DROP TRIGGER tasks_kind_insert")
                b.kindTriggerDropped = true
            }
        } catch {
            failure = error.isBusy ? .locked(path: file.path) : .writeFailed(path: file.path, reason: error.message)
        }
    }

    /// Moves the database from its WAL to a rollback journal for a bulk load, when nothing is
    /// written in this transaction yet and no other connection has the file open (SQLite
    /// refuses the switch then, and the load writes through the WAL). The write lock is let go
    /// for the instant of the switch: should another process commit meanwhile, the import
    /// fails as a conflict and writes nothing, as any statement whose reads another process's
    /// commit made stale. Returns whether the journal changed.
    private func useRollbackJournal() throws(SQLiteError) -> Bool {
        guard !hasPending, try db.text("PRAGMA journal_mode")?.lowercased() == "wal" else { return false }
        try db.exec("COMMIT")
        writing = false
        var switched = false
        var seen = seenVersion
        if try version() == seenVersion {
            do throws(SQLiteError) {
                switched = try db.text("PRAGMA journal_mode=DELETE")?.lowercased() == "delete"
            } catch {
                guard error.isBusy else { throw error }
            }
            // The switch moves `data_version`: the version after it is this connection's own.
            if switched { seen = try version() }
        }
        try db.exec("BEGIN IMMEDIATE")
        writing = true
        if try version() != seen {
            failure = .conflict(path: file.path)
        } else {
            seenVersion = seen
        }
        return switched
    }

    /// Before the commit: the secondary indexes the load dropped, made again, and the count of
    /// each kind taken from the rows (by the index on kind, made just before) with its trigger
    /// made again. Updates and deletes of the load's own rows went through their triggers, so
    /// the counts are taken whole, not added to.
    package func finishBulkLoad() throws(SQLiteError) {
        guard let b = bulk else { return }
        if b.indexesDropped {
            for (name, create) in SQLiteStore.taskIndexes where !SQLiteStore.keptByBulkLoads.contains(name) { try db.exec(create) }
            b.indexesDropped = false
        }
        if b.kindTriggerDropped {
            try db.exec("DELETE FROM task_kinds")
            try db.exec("INSERT INTO task_kinds (kind, n) SELECT kind, count(*) FROM tasks GROUP BY kind")
            try db.exec(SQLiteStore.kindInsertTrigger)
            b.kindTriggerDropped = false
        }
    }

    /// After the commit or the rollback: the load is over, and a database it moved to a
    /// rollback journal goes back to its WAL. Should another connection have opened the file
    /// meanwhile (SQLite then refuses the switch), this connection's next write switches it.
    package func endBulkLoad() {
        guard let b = bulk else { return }
        bulk = nil
        guard b.journal, !writing else { return }
        do throws(SQLiteError) {
            let before = try version()
            guard try db.text("PRAGMA journal_mode=WAL")?.lowercased() == "wal" else {
                walSet = false
                return
            }
            // As in `useWAL`: the switch's own move of `data_version` is not another writer's.
            if before == seenVersion { seenVersion = try version() }
        } catch {
            walSet = false
        }
    }
}
