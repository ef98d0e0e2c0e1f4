// The SQLite store's schema (docs/STORE.md, "The SQLite store"), its migrations, and how each
// change of the one change path becomes SQL. Records are the JSON file's records, so the two
// backends read and write a task the same way.

import KeptRules
import KeptDomain
import KeptFiles

extension SQLiteStore {
    /// The schema (version 4). Task columns are what lookups, counts and the plan read; `record`
    /// is the whole task, as the JSON store writes it. Every row that holds a record carries its
    /// `checksum` (StoreSum.row: XXH64 of the record's bytes seeded with the row's key), checked
    /// whenever the row is read. Version 3 added the sync tables (`syncSchema`), version 4 the
    /// columns urgency reads that no other column holds (`goal`, `user_estimate`) and the plan's
    /// indexes.
    package static let schema = """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, checksum INTEGER);
    CREATE TABLE tasks (
      uid TEXT PRIMARY KEY NOT NULL,
      id INTEGER NOT NULL UNIQUE,
      title TEXT NOT NULL,
      status TEXT NOT NULL,
      kind INTEGER NOT NULL,
      due_day INTEGER,
      due_minute INTEGER,
      priority INTEGER NOT NULL,
      project TEXT,
      project_key TEXT,
      area_key TEXT,
      tag_keys TEXT,
      parent INTEGER,
      estimate INTEGER,
      held_until INTEGER,
      created INTEGER NOT NULL,
      modified INTEGER NOT NULL,
      completed INTEGER,
      reminders INTEGER NOT NULL,
      goal INTEGER NOT NULL DEFAULT 0,
      user_estimate INTEGER,
      record TEXT NOT NULL,
      checksum INTEGER
    );
    \(taskIndexes.map(\.create).joined(separator: "\n"))
    \(kindCounts)
    CREATE TABLE projects (pos INTEGER PRIMARY KEY, record TEXT NOT NULL, checksum INTEGER);
    CREATE TABLE areas (pos INTEGER PRIMARY KEY, record TEXT NOT NULL, checksum INTEGER);
    CREATE TABLE filters (pos INTEGER PRIMARY KEY, record TEXT NOT NULL, checksum INTEGER);
    CREATE TABLE history (seq INTEGER PRIMARY KEY, stack TEXT NOT NULL CHECK (stack IN ('undo', 'redo')),
                          changes INTEGER NOT NULL, step TEXT NOT NULL, checksum INTEGER);
    CREATE TABLE tombstones (uid TEXT PRIMARY KEY NOT NULL, deleted_at TEXT NOT NULL, seq INTEGER NOT NULL UNIQUE, checksum INTEGER);
    \(syncSchema)
    """

    /// How many tasks there are of each kind (version 4), kept by triggers in the transaction
    /// of every write, so the head of a list or a count (`10 of 799,947`) is one row, not a
    /// count of every open task's index entry. `kept check` counts the rows again.
    package static let kindCounts = """
    CREATE TABLE task_kinds (kind INTEGER PRIMARY KEY, n INTEGER NOT NULL);
    \(kindInsertTrigger)
    CREATE TRIGGER tasks_kind_delete AFTER DELETE ON tasks BEGIN
      UPDATE task_kinds SET n = n - 1 WHERE kind = old.kind;
    END;
    CREATE TRIGGER tasks_kind_update AFTER UPDATE OF kind ON tasks WHEN old.kind IS NOT new.kind BEGIN
      UPDATE task_kinds SET n = n - 1 WHERE kind = old.kind;
      INSERT INTO task_kinds (kind, n) VALUES (new.kind, 1) ON CONFLICT (kind) DO UPDATE SET n = n + 1;
    END;
    """

    /// The count of a new row's kind. A bulk load drops it for its rows (one statement run for
    /// each row was half the cost of their insert) and counts the kinds once before its commit.
    package static let kindInsertTrigger = """
    CREATE TRIGGER tasks_kind_insert AFTER INSERT ON tasks BEGIN
      INSERT INTO task_kinds (kind, n) VALUES (new.kind, 1) ON CONFLICT (kind) DO UPDATE SET n = n + 1;
    END;
    """

    /// The indexes of the tasks table other than its keys (uid, id): a large import into an
    /// empty store drops them and makes them again after the rows, in the same transaction.
    package static let taskIndexes: [(name: String, create: String)] = [
        // `created` and `id` after the dues: a list ordered by creation or due and limited
        // (`list overdue limit 10`) finds its rows in this index alone (SQLiteStore+Narrow).
        ("tasks_kind_due", "CREATE INDEX tasks_kind_due ON tasks (kind, due_day, due_minute, created, id);"),
        ("tasks_parent", "CREATE INDEX tasks_parent ON tasks (parent) WHERE parent IS NOT NULL;"),
        ("tasks_title", "CREATE INDEX tasks_title ON tasks (title);"),
        // Version 4: with the kind, priority and due, so a count of a project's tasks with
        // those terms (`count +P and !high`) reads this index alone, not each row.
        ("tasks_project", "CREATE INDEX tasks_project ON tasks (project_key, kind, priority, due_day, due_minute) WHERE project_key IS NOT NULL;"),
        ("tasks_reminders", "CREATE INDEX tasks_reminders ON tasks (id) WHERE reminders > 0;"),
        // Version 4: what was done since an instant (`done today`, the agenda's Done group)
        // without reading every done row.
        ("tasks_completed", "CREATE INDEX tasks_completed ON tasks (kind, completed) WHERE completed IS NOT NULL;"),
    ] + planIndexes

    /// The plan's indexes (version 4; SQLiteStore+Plan): the open tasks without a goal by
    /// priority and due, holding what a plain row's score needs (its condition names `goal`,
    /// which no filter's SQL does, so a filter's query never takes it for the index on kind); the open quick wins by estimate (their count);
    /// the tasks with a goal and the held ones (read whole as candidates). Each holds `kind`
    /// too, so a query that names its condition reads the index alone, not the rows.
    package static let planIndexes: [(name: String, create: String)] = [
        ("tasks_plan", "CREATE INDEX tasks_plan ON tasks (priority, due_day, created, user_estimate, due_minute, id, kind) WHERE \(StatusKind.openSQL) AND goal = 0;"),
        ("tasks_quick", "CREATE INDEX tasks_quick ON tasks (user_estimate, held_until, kind) WHERE \(StatusKind.openSQL) AND user_estimate IS NOT NULL;"),
        ("tasks_goal", "CREATE INDEX tasks_goal ON tasks (id) WHERE goal = 1;"),
        ("tasks_held", "CREATE INDEX tasks_held ON tasks (held_until) WHERE held_until IS NOT NULL;"),
    ]

    /// Brings a database to the current schema in one transaction: a new file gets the whole
    /// schema, an older one each step after its version. What it finds is read again under the
    /// write lock, so two processes making one new store at once make it once.
    package func migrate() throws(SQLiteError) {
        useWAL()
        try db.exec("BEGIN IMMEDIATE")
        do throws(SQLiteError) {
            let tables = try db.integer("SELECT count(*) FROM sqlite_schema") ?? 0
            let version = tables == 0 ? 0 : (try db.integer("PRAGMA user_version") ?? 0)
            if version < 1 {
                try db.exec(SQLiteStore.schema)
                try db.exec("PRAGMA application_id = \(SQLiteStore.applicationID)")
                let s = Store()
                try putMeta("nextId", String(s.nextID))
                try putMeta("settings", JSONWriter.compact(.object(StoreCodec.settingsObject(s.settings))))
                try rewrite("filters", s.filters.map { .object(StoreCodec.filterObject($0)) })
            }
            if version == 1 { try addSums() }
            // Version 2 to 3: the sync tables, empty (a store before sync never synced).
            if version >= 1, version < 3 { try db.exec(SQLiteStore.syncSchema) }
            // Version 3 to 4: the plan's columns, filled from the records, and its indexes.
            if version >= 1, version < 4 { try addPlanColumns() }
            // Later versions: `if version < 5 { … }`, each in this same transaction.
            if version < SQLiteStore.schemaVersion { try db.exec("PRAGMA user_version = \(SQLiteStore.schemaVersion)") }
            try db.exec("COMMIT")
        } catch {
            db.rollbackQuietly()
            throw error
        }
    }

    /// Version 1 to 2: every row that holds a record gets its checksum. A record that does not
    /// decode, or whose id is not its row's, is damage found now: the migration fails and the
    /// file stays as it was, rather than bless the damage with a checksum (the small tables are
    /// read back through their decoders before the migration commits).
    private func addSums() throws(SQLiteError) {
        for table in ["tasks", "meta", "projects", "areas", "filters", "history", "tombstones"] {
            try db.exec("ALTER TABLE \(table) ADD COLUMN checksum INTEGER")
        }
        try sumRows("SELECT key, value FROM meta", "UPDATE meta SET checksum = ?1 WHERE key = ?2") { st in
            (StoreSum.row(st.text(1) ?? "", key: StoreSum.key(st.text(0) ?? "")), .text(st.text(0)))
        }
        for table in ["projects", "areas", "filters"] {
            try sumRows("SELECT pos, record FROM \(table)", "UPDATE \(table) SET checksum = ?1 WHERE pos = ?2") { st in
                (StoreSum.row(st.text(1) ?? "", key: st.int(0)), .int(st.int(0)))
            }
        }
        try sumRows("SELECT seq, stack, step FROM history", "UPDATE history SET checksum = ?1 WHERE seq = ?2") { st in
            (StoreSum.row((st.text(1) ?? "") + "\u{1F}" + (st.text(2) ?? ""), key: st.int(0)), .int(st.int(0)))
        }
        try sumRows("SELECT uid, deleted_at FROM tombstones", "UPDATE tombstones SET checksum = ?1 WHERE uid = ?2") { st in
            (StoreSum.row((st.text(0) ?? "") + "\u{1F}" + (st.text(1) ?? ""), key: 0), .text(st.text(0)))
        }
        _ = try readMeta()
        _ = try readHistory()
        try sumRows("SELECT id, record FROM tasks", "UPDATE tasks SET checksum = ?1 WHERE id = ?2") { (read) throws(SQLiteError) in
            var bytes: [UInt8] = []
            bytes.removeAll(keepingCapacity: true)
            _ = read.appendBytes(1, to: &bytes)
            let id = read.int(0)
            var r = JSONReader(bytes: bytes)
            let recordID: Int
            do throws(JSONError) {
                recordID = try StoreCodec.decodeTask(&r).id
            } catch {
                throw SQLiteError.damage("tasks row id \(id): its record cannot be read: \(error.message)")
            }
            guard Int64(recordID) == id else { throw SQLiteError.damage("tasks row id \(id): its record says id \(recordID)") }
            return (bytes.withUnsafeBytes { StoreSum.row($0, key: id) }, .int(id))
        }
    }

    /// Version 3 to 4: the columns `goal` and `user_estimate`, filled through `lookupColumns`
    /// (the one place a row's columns are computed) from each record, then the plan's indexes.
    /// A record that does not decode keeps the defaults: it is damage the checksum names when
    /// a statement reads the row, as before the migration.
    private func addPlanColumns() throws(SQLiteError) {
        try db.exec("ALTER TABLE tasks ADD COLUMN goal INTEGER NOT NULL DEFAULT 0")
        try db.exec("ALTER TABLE tasks ADD COLUMN user_estimate INTEGER")
        // Only the rows whose values are not the defaults are written; they are collected
        // first (SQLite does not promise what a query sees of a table updated under it).
        var rows: [(id: Int64, goal: Int?, estimate: Int?)] = []
        let read = try db.statement("SELECT id, record FROM tasks")
        var bytes: [UInt8] = []
        do throws(SQLiteError) {
            while try read.step() {
                bytes.removeAll(keepingCapacity: true)
                _ = read.appendBytes(1, to: &bytes)
                var r = JSONReader(bytes: bytes)
                let t: Task
                do throws(JSONError) {
                    t = try StoreCodec.decodeTask(&r)
                } catch {
                    continue
                }
                var sink = PlanColumnSink()
                SQLiteStore.lookupColumns(t, into: &sink)
                if sink.goal != 0 || sink.estimate != nil { rows.append((read.int(0), sink.goal, sink.estimate)) }
            }
        } catch {
            read.reset()
            throw error
        }
        read.reset()
        let put = try db.statement("UPDATE tasks SET goal = ?1, user_estimate = ?2 WHERE id = ?3")
        for row in rows {
            put.reset()
            put.bind(1, row.goal)
            put.bind(2, row.estimate)
            put.bind(3, row.id)
            try put.run()
        }
        for (_, create) in SQLiteStore.planIndexes { try db.exec(create) }
        try db.exec(SQLiteStore.kindCounts)
        try db.exec("INSERT INTO task_kinds (kind, n) SELECT kind, count(*) FROM tasks GROUP BY kind")
        // An index whose definition changed (`tasks_kind_due` within version 3 gained the
        // columns a limited list reads, SQLiteStore+Narrow; `tasks_project` in version 4 the
        // columns a project's counts read) is made again as it is now.
        for (name, create) in SQLiteStore.taskIndexes {
            let st = try db.statement("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?1")
            st.bind(1, name)
            let found = try st.step() ? st.text(0) : nil
            st.reset()
            guard found.map({ $0 + ";" }) != create else { continue }
            try db.exec("DROP INDEX IF EXISTS \(name)")
            try db.exec(create)
        }
    }

    package enum RowKey {
        case int(Int64)
        case text(String?)
    }

    /// Gives each row `select` reads the checksum `sum` makes of it, through `update` (?1 the
    /// checksum, ?2 the row's key). The rows are read whole first: SQLite does not promise what a
    /// query sees of a table updated while it steps through it.
    private func sumRows(_ select: String, _ update: String,
                         _ sum: (SQLiteStatement) throws(SQLiteError) -> (Int64, RowKey)) throws(SQLiteError) {
        var rows: [(Int64, RowKey)] = []
        let read = try db.statement(select)
        do throws(SQLiteError) {
            while try read.step() { rows.append(try sum(read)) }
        } catch {
            read.reset()
            throw error
        }
        read.reset()
        let put = try db.statement(update)
        for (value, key) in rows {
            put.reset()
            put.bind(1, value)
            switch key {
            case .int(let k): put.bind(2, k)
            case .text(let k): put.bind(2, k)
            }
            try put.run()
        }
    }

    // MARK: reading the small parts

    /// Everything but the tasks, read through the JSON store's own decoder (so a damaged part
    /// is refused as a JSON store would refuse it).
    package func readMeta() throws(SQLiteError) -> Store.Meta {
        var doc = "{\"format\": \"kept-store\", \"version\": 1"
        var extra = "{}"
        let st = try db.statement("SELECT key, value, \(sumColumn) FROM meta")
        while try st.step() {
            guard let k = st.text(0), let v = st.text(1) else { continue }
            if hasSums, st.isNull(2) || StoreSum.row(v, key: StoreSum.key(k)) != st.int(2) {
                st.reset()
                throw SQLiteError.damage("meta \(k): its value does not match its checksum")
            }
            switch k {
            case "nextId", "settings", "plan", "calendars": doc += ", \(JSONWriter.compact(.string(k))): \(v)"
            case "extra": extra = v
            default: break
            }
        }
        st.reset()
        for table in ["projects", "areas", "filters"] {
            doc += ", \"\(table)\": [" + (try records(table)).joined(separator: ",") + "]"
        }
        doc += "}"
        guard case .success(var s) = StoreCodec.decode(Array(doc.utf8)) else {
            throw SQLiteError(code: 11, message: "the store's settings, projects or filters cannot be read")
        }
        do throws(JSONError) {
            if case .object(let o) = try JSONParser.parse(Array(extra.utf8)) { s.extra = o }
        } catch {
            throw SQLiteError(code: 11, message: "the store's other top-level fields cannot be read")
        }
        return s.meta
    }

    package func readHistory() throws(SQLiteError) -> Journal {
        var undo: [String] = [], redo: [String] = []
        let st = try db.statement("SELECT seq, stack, step, \(sumColumn) FROM history ORDER BY seq")
        while try st.step() {
            let stack = st.text(1) ?? "", step = st.text(2) ?? "null"
            if hasSums, st.isNull(3) || StoreSum.row(stack + "\u{1F}" + step, key: st.int(0)) != st.int(3) {
                let seq = st.int(0)
                st.reset()
                throw SQLiteError.damage("step \(seq): it does not match its checksum")
            }
            if stack == "redo" { redo.append(step) } else { undo.append(step) }
        }
        st.reset()
        let doc = "{\"history\": {\"undo\": [" + undo.joined(separator: ",") + "], \"redo\": [" + redo.joined(separator: ",") + "]}}"
        guard case .success(let s) = StoreCodec.decode(Array(doc.utf8)) else {
            throw SQLiteError.damage(try damagedStep() ?? "the undo history cannot be read")
        }
        return s.history
    }

    /// Which step of the history does not read, each read alone: "step N: why".
    private func damagedStep() throws(SQLiteError) -> String? {
        let st = try db.statement("SELECT seq, step FROM history ORDER BY seq")
        defer { st.reset() }
        while try st.step() {
            let doc = "{\"history\": {\"undo\": [" + (st.text(1) ?? "null") + "], \"redo\": []}}"
            if case .failure(let e) = StoreCodec.decode(Array(doc.utf8)) { return "step \(st.int(0)): \(e.message)" }
        }
        return nil
    }

    /// The records of a small table (projects, areas, filters) in order, each checked against
    /// its checksum.
    private func records(_ table: String) throws(SQLiteError) -> [String] {
        let st = try db.statement("SELECT pos, record, \(sumColumn) FROM \(table) ORDER BY pos")
        defer { st.reset() }
        var out: [String] = []
        while try st.step() {
            let r = st.text(1) ?? "null"
            if hasSums, st.isNull(2) || StoreSum.row(r, key: st.int(0)) != st.int(2) {
                throw SQLiteError.damage("\(table) row \(st.int(0)): its record does not match its checksum")
            }
            out.append(r)
        }
        return out
    }

    // MARK: writing

    package func putMeta(_ key: String, _ value: String?) throws(SQLiteError) {
        try putKeyed("meta", key, value)
    }

    /// Puts a row of a table keyed by name (`meta`, `sync_meta`), or removes it (nil); its
    /// checksum is seeded with the sum of the key's name.
    package func putKeyed(_ table: String, _ key: String, _ value: String?) throws(SQLiteError) {
        guard let value else {
            let st = try db.statement("DELETE FROM \(table) WHERE key = ?1")
            st.bind(1, key)
            try st.run()
            return
        }
        let st = try db.statement("INSERT INTO \(table) (key, value, checksum) VALUES (?1, ?2, ?3) "
                                  + "ON CONFLICT (key) DO UPDATE SET value = excluded.value, checksum = excluded.checksum")
        st.bind(1, key)
        st.bind(2, value)
        st.bind(3, StoreSum.row(value, key: StoreSum.key(key)))
        try st.run()
    }

    /// Replaces a small table's rows (projects, areas, saved filters: few, and ordered).
    package func rewrite(_ table: String, _ items: [JSONValue]) throws(SQLiteError) {
        try db.exec("DELETE FROM \(table)")
        let st = try db.statement("INSERT INTO \(table) (pos, record, checksum) VALUES (?1, ?2, ?3)")
        for (k, v) in items.enumerated() {
            st.reset()
            let record = JSONWriter.compact(v)
            st.bind(1, k)
            st.bind(2, record)
            st.bind(3, StoreSum.row(record, key: Int64(k)))
            try st.step()
        }
        st.reset()
    }

    /// Makes one change of the change path in SQL, and in the caches that hold what it changes.
    package func write(_ change: StoreChange) throws(SQLiteError) {
        switch change {
        case .item(.task(let b, let a)):
            dropFullView()
            if let a {
                // A new task is inserted: a uid already there is an error, never a replacement.
                try upsert(a, replacing: b != nil)
                if let b, b.uid != a.uid { try deleteTask(b.uid) }
            } else if let b {
                try deleteTask(b.uid)
            }
        case .item(let c):
            var s = Store()
            s.meta = currentMeta
            s.apply(.item(c))
            let m = s.meta
            currentMeta = m
            switch c {
            case .project: try rewrite("projects", m.projects.map { .object(StoreCodec.projectObject($0)) })
            case .area: try rewrite("areas", m.areas.map { .object(StoreCodec.areaObject($0)) })
            case .settings: try putMeta("settings", JSONWriter.compact(.object(StoreCodec.settingsObject(m.settings))))
            case .filters: try rewrite("filters", m.filters.map { .object(StoreCodec.filterObject($0)) })
            case .plan: try putMeta("plan", m.plan.map { JSONWriter.compact(StoreCodec.planValue($0)) })
            case .calendars: try putMeta("calendars", m.calendars.isEmpty ? nil : JSONWriter.compact(StoreCodec.calendarsValue(m.calendars)))
            case .task: break
            }
        case .nextID(let n):
            currentMeta.nextID = n
            try putMeta("nextId", String(n))
        case .tombstone(let t):
            let st = try db.statement("INSERT INTO tombstones (uid, deleted_at, seq, checksum) VALUES (?1, ?2, (SELECT coalesce(max(seq), 0) + 1 FROM tombstones), ?3) "
                                      + "ON CONFLICT (uid) DO UPDATE SET deleted_at = excluded.deleted_at, seq = excluded.seq, checksum = excluded.checksum")
            let at = TimeText.isoInstant(t.deletedAt, in: .utc)
            st.bind(1, t.uid.description)
            st.bind(2, at)
            st.bind(3, StoreSum.row(t.uid.description + "\u{1F}" + at, key: 0))
            try st.run()
            hasTombstones = true
            try db.exec("DELETE FROM tombstones WHERE seq <= (SELECT max(seq) FROM tombstones) - \(Tombstone.limit)")
        case .untombstone(let uid):
            let st = try db.statement("DELETE FROM tombstones WHERE uid = ?1")
            st.bind(1, uid.description)
            try st.run()
        case .history(let h):
            try writeHistory(h)
        case .sync(let c):
            currentMeta.sync.apply(c)
            try writeSync(c)
        }
    }

    private func writeHistory(_ h: HistoryChange) throws(SQLiteError) {
        // The cache follows when it is loaded; the table always does.
        var j = loadedJournal
        j?.apply(h)
        loadedJournal = j
        func insert(_ stack: String, _ s: JournalStep) throws(SQLiteError) {
            // A step larger than the file keeps (a large import) is not written: the history in
            // the database ends before it, as a JSON file's does (Journal.storedChanges), and the
            // session that made it keeps it in memory.
            guard s.changes.count <= Journal.storedChanges else {
                if loadedJournal == nil {
                    var all = try readHistory()
                    all.apply(h)
                    loadedJournal = all
                }
                try db.exec("DELETE FROM history WHERE stack = '\(stack)'")
                return
            }
            let seq = (try db.integer("SELECT coalesce(max(seq), 0) + 1 FROM history")) ?? 1
            let step = JSONWriter.compact(StoreCodec.stepValue(s))
            let st = try db.statement("INSERT INTO history (seq, stack, changes, step, checksum) VALUES (?1, ?2, ?3, ?4, ?5)")
            st.bind(1, seq)
            st.bind(2, stack)
            st.bind(3, s.changes.count)
            st.bind(4, step)
            st.bind(5, StoreSum.row(stack + "\u{1F}" + step, key: seq))
            try st.run()
        }
        func popNewest(_ stack: String) throws(SQLiteError) {
            try db.exec("DELETE FROM history WHERE seq = (SELECT max(seq) FROM history WHERE stack = '\(stack)')")
        }
        switch h {
        case .record(let s):
            try db.exec("DELETE FROM history WHERE stack = 'redo'")
            try insert("undo", s)
            try trimUndo()
        case .popUndo: try popNewest("undo")
        case .pushRedo(let s): try insert("redo", s)
        case .popRedo: try popNewest("redo")
        case .pushUndo(let s):
            try insert("undo", s)
            try trimUndo()
        case .renumber:
            // Rare (undo of a delete): the whole history, renumbered, is written again.
            var all: Journal
            if let j = loadedJournal {
                all = j
            } else {
                all = try readHistory()
                all.apply(h)
            }
            loadedJournal = all
            try db.exec("DELETE FROM history")
            for s in StoreCodec.storedSteps(all.undoStack) { try insert("undo", s) }
            for s in StoreCodec.storedSteps(all.redoStack) { try insert("redo", s) }
        }
    }

    /// Keeps what the JSON store keeps of the undo list: the newest 100 steps, fewer when they
    /// hold more than 10,000 changes (Journal.storedSteps, Journal.storedChanges).
    private func trimUndo() throws(SQLiteError) {
        try db.exec("""
        DELETE FROM history WHERE stack = 'undo' AND seq NOT IN (
          SELECT seq FROM (SELECT seq, sum(changes) OVER (ORDER BY seq DESC) AS total,
                                  row_number() OVER (ORDER BY seq DESC) AS k
                           FROM history WHERE stack = 'undo')
          WHERE k <= \(Journal.storedSteps) AND (total <= \(Journal.storedChanges) OR k = 1))
        """)
    }

    private func deleteTask(_ uid: TaskUID) throws(SQLiteError) {
        let st = try db.statement("DELETE FROM tasks WHERE uid = ?1")
        st.bind(1, uid.description)
        try st.run()
    }

    /// Writes a task's row: its columns and its record; `replacing` the row of its uid, or a new
    /// one.
    package func upsert(_ t: Task, replacing: Bool = true) throws(SQLiteError) {
        // A bulk load holds its insert statement (SQLiteStore+BulkLoad).
        let st: SQLiteStatement
        if !replacing, let held = bulk?.insert { st = held } else { st = try db.statement(replacing ? SQLiteStore.upsertSQL : SQLiteStore.insertSQL) }
        try bindTask(st, t)
        try st.run()
    }

    /// The row of a task: its lookup columns (1 to 21, `lookupColumns`), its record
    /// (`recordParameter`) and its checksum (`checksumParameter`).
    package static let columnsSQL = """
    INSERT INTO tasks (uid, id, title, status, kind, due_day, due_minute, priority, project, project_key, area_key, tag_keys,
                       parent, estimate, held_until, created, modified, completed, reminders, goal, user_estimate, record, checksum)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)
    """
    package static let recordParameter: Int32 = Int32(lookupColumnNames.count + 1)
    package static let checksumParameter: Int32 = Int32(lookupColumnNames.count + 2)
    package static let insertSQL = columnsSQL
    package static let upsertSQL = columnsSQL + """

    ON CONFLICT (uid) DO UPDATE SET id = excluded.id, title = excluded.title, status = excluded.status, kind = excluded.kind,
      due_day = excluded.due_day, due_minute = excluded.due_minute, priority = excluded.priority, project = excluded.project,
      project_key = excluded.project_key, area_key = excluded.area_key, tag_keys = excluded.tag_keys,
      parent = excluded.parent, estimate = excluded.estimate, held_until = excluded.held_until,
      created = excluded.created, modified = excluded.modified, completed = excluded.completed,
      reminders = excluded.reminders, goal = excluded.goal, user_estimate = excluded.user_estimate,
      record = excluded.record, checksum = excluded.checksum
    """

    /// The lookup columns of a task's row, in the order of `columnsSQL` (1 to 21): what a write
    /// binds, what `kept check` compares a row's columns with, and what a migration fills new
    /// columns from. The one place a task's columns are computed: every writer of a row
    /// (`bindTask`) goes through it.
    package static func lookupColumns<S: TaskColumnSink>(_ t: Task, into s: inout S) {
        s.put(1, t.uid.description)
        s.put(2, t.id)
        s.put(3, t.title)
        s.put(4, t.status.rawValue)
        s.put(5, Int(StatusKind(t.status).rawValue))
        s.put(6, t.due.map { $0.date.dayNumber })
        s.put(7, t.due.flatMap { d in d.time.map { d.date.dayNumber * 1440 + $0.minuteOfDay } })
        s.put(8, t.priority.rawValue)
        s.put(9, t.project)
        // Names as filters compare them: lowercased (an area without case or spacing; R-FIL-6).
        s.put(10, t.project?.lowercased())
        s.put(11, t.area.map(AreaName.key))
        s.put(12, t.tags.isEmpty ? nil : SQLiteStore.tagKeys(t.tags))
        s.put(13, t.parent)
        s.put(14, t.estimate?.minutes)
        s.put(15, t.heldUntil?.dayNumber)
        s.put(16, Int(t.createdAt.seconds))
        s.put(17, Int(t.modifiedAt.seconds))
        s.put(18, t.completedAt.map { Int($0.seconds) })
        s.put(19, t.reminders.count)
        // Version 4: what urgency reads that no column above holds (docs/PLAN.md): a goal link,
        // and an estimate the user set (a suggested one never makes a quick win).
        s.put(20, t.goal == nil ? 0 : 1)
        s.put(21, t.estimate.flatMap { $0.source == .suggested ? nil : $0.minutes })
    }

    /// The names of the lookup columns, 1 to 21 (the last two since version 4).
    package static let lookupColumnNames = ["uid", "id", "title", "status", "kind", "due_day", "due_minute", "priority", "project", "project_key",
                                    "area_key", "tag_keys", "parent", "estimate", "held_until", "created", "modified", "completed", "reminders",
                                    "goal", "user_estimate"]

    /// Binds a task's whole row to a statement of `columnsSQL`'s parameters: its columns, its
    /// record and the record's checksum.
    package func bindTask(_ st: SQLiteStatement, _ t: Task) throws(SQLiteError) {
        var sink = BindSink(st: st)
        SQLiteStore.lookupColumns(t, into: &sink)
        // The compact record, written straight into bytes (the same bytes as taskObject's), in
        // room kept from one row to the next.
        recordBytes.removeAll(keepingCapacity: true)
        StoreCodec.appendTaskRecord(t, to: &recordBytes, room: &recordRoom)
        st.bind(SQLiteStore.recordParameter, bytes: recordBytes)
        st.bind(SQLiteStore.checksumParameter, recordBytes.withUnsafeBytes { StoreSum.row($0, key: Int64(t.id)) })
    }

    /// A task's tags as one column: each lowercased, between unit separators, so a tag is
    /// found with `instr`.
    package static func tagKeys(_ tags: [String]) -> String {
        "\u{1F}" + tags.map { $0.lowercased() }.joined(separator: "\u{1F}") + "\u{1F}"
    }

    /// Makes a new database at `path` holding `s`, checkpointed and closed; the error, if any.
    package static func make(_ path: String, holding s: Store) -> StoreError? {
        switch open(path) {
        case .failure(let e): return e
        case .success(let made):
            do throws(SQLiteError) {
                try made.fill(with: s)
                try made.db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
                try made.db.exec("PRAGMA journal_mode=DELETE")
            } catch {
                return .writeFailed(path: path, reason: error.message)
            }
            return nil
        }
    }

    /// Writes a whole store into an empty database, in one transaction (`kept convert`).
    package func fill(with s: Store) throws(SQLiteError) {
        try db.exec("BEGIN IMMEDIATE")
        do throws(SQLiteError) {
            try db.exec("DELETE FROM tasks; DELETE FROM history; DELETE FROM tombstones")
            // A second task with one uid is an error, never a replacement of the first.
            for t in s.tasks { try upsert(t, replacing: false) }
            try rewrite("projects", s.projects.map { .object(StoreCodec.projectObject($0)) })
            try rewrite("areas", s.areas.map { .object(StoreCodec.areaObject($0)) })
            try rewrite("filters", s.filters.map { .object(StoreCodec.filterObject($0)) })
            try putMeta("settings", JSONWriter.compact(.object(StoreCodec.settingsObject(s.settings))))
            try putMeta("plan", s.plan.map { JSONWriter.compact(StoreCodec.planValue($0)) })
            try putMeta("calendars", s.calendars.isEmpty ? nil : JSONWriter.compact(StoreCodec.calendarsValue(s.calendars)))
            try putMeta("nextId", String(s.nextID))
            try putMeta("extra", s.extra.members.isEmpty ? nil : JSONWriter.compact(.object(s.extra)))
            loadedJournal = Journal()
            for st in StoreCodec.storedSteps(s.history.undoStack) { try writeHistory(.pushUndo(st)) }
            for st in StoreCodec.storedSteps(s.history.redoStack) { try writeHistory(.pushRedo(st)) }
            for t in s.tombstones { try write(.tombstone(t)) }
            try writeSyncState(s.sync)
            try db.exec("COMMIT")
        } catch {
            db.rollbackQuietly()
            throw error
        }
        // Committed outside `commit`, which keeps the sync state it committed: what is read
        // back is the sync state written here, not the one this connection held before.
        committedSync = nil
        rollback()
    }
}

/// Where a task's lookup columns go: bound to a statement, or compared with a row read.
package protocol TaskColumnSink {
    mutating func put(_ k: Int32, _ v: Int?)
    mutating func put(_ k: Int32, _ v: String?)
}

/// Binds the columns to a statement's parameters.
package struct BindSink: TaskColumnSink {
    package let st: SQLiteStatement
    package func put(_ k: Int32, _ v: Int?) { st.bind(k, v) }
    package func put(_ k: Int32, _ v: String?) { st.bind(k, v) }
}

/// Keeps the columns version 4 added, for the migration that fills them.
private struct PlanColumnSink: TaskColumnSink {
    var goal: Int? = 0
    var estimate: Int?
    mutating func put(_ k: Int32, _ v: Int?) {
        if k == 20 { goal = v }
        if k == 21 { estimate = v }
    }
    mutating func put(_ k: Int32, _ v: String?) {}
}

/// Compares the columns with a row whose result columns 0 to 20 are the lookup columns, and
/// names the first that differs.
package struct CompareSink: TaskColumnSink {
    package let st: SQLiteStatement
    /// How many lookup columns the row has (fewer in an older file read as it is).
    package let columns: Int32
    package var differs: Int32?
    package init(st: SQLiteStatement, columns: Int32) {
        self.st = st
        self.columns = columns
    }
    package mutating func put(_ k: Int32, _ v: Int?) {
        guard differs == nil, k <= columns else { return }
        let c = k - 1
        let same = v.map { !st.isNull(c) && st.int(c) == Int64($0) } ?? st.isNull(c)
        if !same { differs = k }
    }
    package mutating func put(_ k: Int32, _ v: String?) {
        guard differs == nil, k <= columns else { return }
        let c = k - 1
        let same = v.map { !st.isNull(c) && st.text(c) == $0 } ?? st.isNull(c)
        if !same { differs = k }
    }
}
