// The store file format (docs/STORE.md): a versioned JSON object. Decoding walks the bytes with
// JSONReader and reads known fields straight into the model; any other field is kept as JSON and
// written back unchanged (R-STORE-1). Every error carries a byte offset, so it shows line:column.

import KeptRules
import KeptDomain
import KeptFiles

/// Encodes and decodes store files.
public enum StoreCodec {
    public static let format = "kept-store"
    public static let version = 1

    // MARK: decoding

    /// Reads a store from the bytes of its file. Every record is checked either way; with
    /// `deferTasks` the tasks are built only when asked for (DeferredTasks).
    public static func decode(_ bytes: [UInt8], deferTasks: Bool = true) -> Result<Store, JSONError> {
        decode(bytes, deferTasks: deferTasks, parallelAt: parallelThreshold)
    }

    /// As `decode`, reading the tasks on two threads from `parallelAt` bytes (tests lower it;
    /// the load bench raises it to time one thread).
    public static func decode(_ bytes: [UInt8], deferTasks: Bool, parallelAt: Int) -> Result<Store, JSONError> {
        var r = JSONReader(bytes: bytes)
        r.uniqueKeys = true
        do throws(JSONError) {
            return .success(try decodeStore(&r, deferTasks: deferTasks, parallelAt: parallelAt))
        } catch {
            return .failure(error)
        }
    }

    package static func decodeStore(_ r: inout JSONReader, deferTasks: Bool, parallelAt: Int) throws(JSONError) -> Store {
        r.skipWhitespace()
        guard r.peekKind() == .object else { throw r.error("a store is a JSON object") }
        try r.beginObject()
        var tasks: [Task] = []
        var deferred: DeferredTasks? = nil
        var sawTasks = false
        var store = Store()
        var nextID: Int? = nil
        var seen = Set<Int>()
        var uids = UIDTable(reserving: 0)
        // Where the "checksum" member starts and what it says; a member after it means the
        // file was changed after it was written.
        var sum: (end: Int, text: String)? = nil
        var afterSum = false
        while true {
            let memberStart = r.offset
            guard let key = try r.nextKey() else { break }
            if sum != nil { afterSum = true }
            r.skipWhitespace()
            let at = r.offset
            switch key {
            case checksumKey:
                guard sum == nil else { throw r.error("a store has one 'checksum'", at: at) }
                sum = (memberStart, try r.readString())
            case "format":
                let f = try r.readString()
                guard f == format else { throw r.error("'format' is '\(f)', not '\(format)'", at: at) }
            case "version":
                let v = try r.readInt()
                guard v >= 1, v <= version else {
                    throw r.error("store version \(v) is not one this Kept reads (it reads up to \(version))", at: at)
                }
            case "revision":
                let n = try r.readInt()
                guard n >= 0, n <= Store.maxID else { throw r.error("'revision' must be from 0 to \(Store.maxID)", at: at) }
                store.revision = n
            case "tombstones":
                store.tombstones = try decodeTombstones(&r)
            case "nextId":
                let n = try r.readInt()
                // One past the largest id: the value a store has once its last id is used.
                guard n >= 1, n <= Store.maxID + 1 else { throw r.error("'nextId' must be from 1 to \(Store.maxID + 1)", at: at) }
                nextID = n
            case "settings":
                store.settings = try decodeSettings(&r)
            case "projects":
                store.projects = try decodeList(&r, known: ["name", "uid", "archived", "statuses"]) { (o: SplitObject) throws(FieldError) in
                    guard case .string(let n)? = o.known["name"], !n.isEmpty else { throw FieldError(message: "a project needs a 'name'", offset: o.start) }
                    var p = Project(name: n)
                    guard let uid = itemUID(o.known["uid"], named: p.uid) else { throw FieldError(message: "a project's 'uid' is a UUID", offset: o.start) }
                    p.uid = uid
                    p.extra = o.rest
                    if case .bool(let a)? = o.known["archived"] { p.archived = a }
                    if let v = o.known["statuses"] {
                        guard let list = projectStatuses(v) else {
                            throw FieldError(message: "a project's 'statuses' is a list of names", offset: o.start)
                        }
                        p.statuses = list
                    }
                    return p
                }
            case "areas":
                store.areas = try decodeList(&r, known: ["name", "uid"]) { (o: SplitObject) throws(FieldError) in
                    guard case .string(let n)? = o.known["name"], !n.isEmpty else { throw FieldError(message: "an area needs a 'name'", offset: o.start) }
                    var a = Area(name: n)
                    guard let uid = itemUID(o.known["uid"], named: a.uid) else { throw FieldError(message: "an area's 'uid' is a UUID", offset: o.start) }
                    a.uid = uid
                    a.extra = o.rest
                    return a
                }
            case "filters":
                store.filters = try decodeList(&r, known: ["name", "uid", "filter", "starred"]) { (o: SplitObject) throws(FieldError) in
                    guard case .string(let n)? = o.known["name"], case .string(let f)? = o.known["filter"] else {
                        throw FieldError(message: "a saved filter needs a 'name' and a 'filter'", offset: o.start)
                    }
                    var s = SavedFilter(name: n, filter: f)
                    guard let uid = itemUID(o.known["uid"], named: s.uid) else { throw FieldError(message: "a saved filter's 'uid' is a UUID", offset: o.start) }
                    s.uid = uid
                    if case .bool(let b)? = o.known["starred"] { s.starred = b }
                    s.extra = o.rest
                    return s
                }
            case "tasks":
                guard !sawTasks else { throw r.error("a store has one 'tasks' list", at: at) }
                sawTasks = true
                r.skipWhitespace()
                guard r.peekKind() == .array else { throw r.error("'tasks' is a list", at: at) }
                try r.beginArray()
                if deferTasks {
                    deferred = try deferredTasks(&r, dayStart: store.settings.day.dayStart, parallelAt: parallelAt)
                    continue
                }
                // About 250 bytes a task: one reservation instead of a copy at each doubling.
                tasks.reserveCapacity(max(0, (r.bytes.count - r.offset) / 256))
                var record = TaskRecord()
                while try r.nextElement() {
                    r.skipWhitespace()
                    let start = r.offset
                    try readTask(&r, into: &record, keep: true)
                    guard seen.insert(record.id).inserted else { throw r.error("two tasks have id \(record.id)", at: start) }
                    let t = task(record, r)
                    // Every uid, derived ones too: the task has worked its uid out already.
                    if let row = uids.insert(t.uid, row: tasks.count) { throw sameUID(t.uid, first: tasks[row].id, second: record.id, r, at: start) }
                    if record.hasRepeat, t.repeatRule?.rule == nil { throw unreadableRepeat(record, r) }
                    tasks.append(t)
                }
            case "history":
                store.history = try decodeHistory(&r)
            case syncKey:
                let v = try r.readValue()
                do throws(HistoryError) {
                    store.sync = try decodeSync(v)
                } catch {
                    throw r.error("the sync state: \(error.message)", at: at)
                }
            case "calendars":
                let v = try r.readValue()
                do throws(HistoryError) {
                    store.calendars = try calendars(v)
                } catch {
                    throw r.error("the calendars: \(error.message)", at: at)
                }
            case "plan":
                let v = try r.readValue()
                do throws(HistoryError) {
                    store.plan = try optional(v, planSnapshot)
                } catch {
                    throw r.error("the plan: \(error.message)", at: at)
                }
            default:
                store.extra[key] = try r.readValue()
            }
        }
        try r.finish()
        var s: Store
        if let d = deferred {
            // Ids out of order only come from a hand-edited file: build and sort them now.
            s = d.inOrder ? Store(deferred: d) : Store(tasks: d.tasks)
        } else {
            s = Store(tasks: tasks)
        }
        s.projects = store.projects
        s.areas = store.areas
        s.filters = store.filters
        s.settings = store.settings
        s.extra = store.extra
        s.history = store.history
        s.plan = store.plan
        s.calendars = store.calendars
        s.revision = store.revision
        s.tombstones = store.tombstones
        s.sync = store.sync
        if let n = nextID { s.nextID = max(n, s.nextID) }
        if let sum {
            let want = r.bytes.withUnsafeBytes { checksumText(StoreSum.of(UnsafeRawBufferPointer(rebasing: $0[0..<sum.end]))) }
            s.checksum = !afterSum && sum.text == want ? .matches : .differs
        }
        return s
    }

    /// The top-level member that holds the checksum of the file's bytes before it (docs/STORE.md,
    /// "Checksums"); the writer puts it last.
    package static let checksumKey = "checksum"

    /// A checksum as the file writes it.
    package static func checksumText(_ v: UInt64) -> String { "xxh64:" + StoreSum.hex(v) }

    /// `[{"uid": UUID, "deletedAt": INSTANT}…]`, oldest first.
    package static func decodeTombstones(_ r: inout JSONReader) throws(JSONError) -> [Tombstone] {
        var out: [Tombstone] = []
        r.skipWhitespace()
        guard r.peekKind() == .array else { throw r.error("'tombstones' is a list") }
        try r.beginArray()
        while try r.nextElement() {
            let o = try object(&r, known: ["uid", "deletedAt"])
            guard case .string(let u)? = o.known["uid"], let uid = TaskUID(u) else { throw r.error("a tombstone needs a 'uid'", at: o.start) }
            guard case .string(let d)? = o.known["deletedAt"], let at = TimeText.parseISOInstant(d) else {
                throw r.error("a tombstone needs 'deletedAt', an instant", at: o.start)
            }
            out.append(Tombstone(uid: uid, deletedAt: at))
        }
        return out
    }

    /// An object read whole, split into the keys a decoder knows and the rest.
    package struct SplitObject {
        package var known: [String: JSONValue] = [:]
        package var rest = JSONObject()
        package var start: Int
    }

    package static func object(_ r: inout JSONReader, known: Set<String> = []) throws(JSONError) -> SplitObject {
        r.skipWhitespace()
        let start = r.offset
        guard r.peekKind() == .object else { throw r.error("expected an object") }
        var o = SplitObject(start: start)
        try r.beginObject()
        while let k = try r.nextKey() {
            let v = try r.readValue()
            if known.isEmpty || known.contains(k) { o.known[k] = v } else { o.rest[k] = v }
        }
        return o
    }

    /// A problem in one record, turned into a positioned JSONError by the caller.
    package struct FieldError: Error {
        package let message: String
        package let offset: Int
    }

    /// A list of objects, each split into its known keys and the rest before `item` reads it.
    package static func decodeList<T>(_ r: inout JSONReader, known: Set<String>,
                              _ item: (SplitObject) throws(FieldError) -> T) throws(JSONError) -> [T] {
        r.skipWhitespace()
        guard r.peekKind() == .array else { throw r.error("expected a list") }
        try r.beginArray()
        var out: [T] = []
        while try r.nextElement() {
            let o = try object(&r, known: known)
            do throws(FieldError) {
                out.append(try item(o))
            } catch {
                throw r.error(error.message, at: error.offset)
            }
        }
        return out
    }

    package static func decodeSettings(_ r: inout JSONReader) throws(JSONError) -> Settings {
        r.skipWhitespace()
        guard r.peekKind() == .object else { throw r.error("'settings' is an object") }
        var s = Settings()
        try r.beginObject()
        while let key = try r.nextKey() {
            r.skipWhitespace()
            let at = r.offset
            if Settings.spec(key) != nil {
                let v = try r.readString()
                if key == "zone", v.isEmpty { continue }
                guard s.set(key, to: v) else { throw r.error("'\(v)' is not a value of setting '\(key)'", at: at) }
            } else {
                s.extra[key] = try r.readValue()
            }
        }
        return s
    }

    /// A task from its record as a value (sync's pulled tasks); nil when it does not read.
    package static func task(record: JSONObject) -> Task? {
        var r = JSONReader(bytes: Array(JSONWriter.compact(.object(record)).utf8))
        do throws(JSONError) {
            let t = try decodeTask(&r)
            r.skipWhitespace()
            return r.offset == r.bytes.count ? t : nil
        } catch {
            return nil
        }
    }

    package static func decodeTask(_ r: inout JSONReader) throws(JSONError) -> Task {
        var record = TaskRecord()
        try readTask(&r, into: &record, keep: true)
        let t = task(record, r)
        if record.hasRepeat, t.repeatRule?.rule == nil { throw unreadableRepeat(record, r) }
        return t
    }

    /// The task a record describes, its strings built from the reader's bytes.
    package static func task(_ rec: TaskRecord, _ r: JSONReader) -> Task {
        var t = Task(id: rec.id, title: r.string(rec.title), createdAt: rec.createdAt, uid: rec.uid)
        if let s = rec.status {
            if r.text(s, is: "open") { t.status = .open }
            else if r.text(s, is: "done") { t.status = .done }
            else if r.text(s, is: "archived") { t.status = .archived }
            else { t.status = TaskStatus(rawValue: r.string(s)) }
        }
        t.due = rec.due
        t.start = rec.startDue
        t.priority = rec.priority
        t.project = rec.project.map { r.string($0) }
        t.area = rec.area.map { r.string($0) }
        if !rec.tags.isEmpty { t.tags = rec.tags.map { r.string($0) } }
        if !rec.notes.isEmpty { t.notes = rec.notes.map { r.string($0) } }
        t.description = rec.description.map { r.string($0) }
        t.goal = rec.goal.map { r.string($0) }
        if rec.hasRepeat {
            let x = rec.repeatExtras
            var spec = RepeatSpec(text: r.string(rec.repeatText), rrule: rec.repeatRRULE.map { r.string($0) }, anchor: rec.repeatAnchor,
                                  anchorTime: x?.anchorTime, weekStart: x?.weekStart)
            if let x {
                spec.exceptions = x.exceptions
                spec.additions = x.additions
            }
            t.repeatRule = spec
        }
        t.estimate = rec.estimate
        t.heldUntil = rec.heldUntil
        t.notTodayOn = rec.notTodayOn
        t.completedAt = rec.completedAt
        t.modifiedAt = rec.lastModified
        t.parent = rec.parent
        t.nextOccurrence = rec.nextOccurrence
        t.pristine = rec.pristine
        t.steps = rec.steps
        t.reminders = rec.reminders
        t.comments = rec.comments
        t.extra = rec.extra
        return t
    }

    package static func stringList(_ r: inout JSONReader) throws(JSONError) -> [String] {
        r.skipWhitespace()
        guard r.peekKind() == .array else { throw r.error("expected a list of strings") }
        try r.beginArray()
        var out: [String] = []
        while try r.nextElement() { out.append(try r.readString()) }
        return out
    }

    package static func decodeDue(_ r: inout JSONReader, _ at: Int) throws(JSONError) -> Due? {
        if r.isNull() { return nil }
        r.skipWhitespace()
        guard r.peekKind() == .object else { throw r.error("a due is an object like {\"date\": \"2026-06-15\"}", at: at) }
        // Read straight from the bytes: every dated task has one, so no dictionary per due.
        try r.beginObject()
        var date: CivilDate? = nil
        var time: WallTime? = nil
        var seen = (date: false, time: false)
        while let key = try r.nextKeyRef(noting: false) {
            // Its two keys by a flag each, the others by the reader (JSONReader+Keys).
            let isDate = r.text(key, is: "date")
            if isDate || r.text(key, is: "time") {
                guard !(isDate ? seen.date : seen.time) else {
                    throw r.error("the key '\(isDate ? "date" : "time")' appears twice in one object", at: key.start - 1)
                }
                if isDate { seen.date = true } else { seen.time = true }
            } else {
                try r.noteKey(start: key.start, end: key.end, escaped: key.escaped, at: key.start - 1)
            }
            if isDate {
                let s = try r.readStringRef()
                guard let d = r.withText(s, { CivilDate.parseISO($0) }) else { throw r.error("a due needs a 'date' like 2026-06-15", at: at) }
                date = d
            } else if r.text(key, is: "time") {
                if r.isNull() { continue }
                let s = try r.readStringRef()
                guard let t = r.withText(s, { WallTime.parseISO($0) }) else { throw r.error("a due 'time' is like 15:00", at: at) }
                time = t
            } else {
                try r.skipValue()
            }
        }
        guard let d = date else { throw r.error("a due needs a 'date' like 2026-06-15", at: at) }
        return Due(date: d, time: time)
    }

    // MARK: encoding

    /// The bytes of a store file: one task per line, so a store diffs well under version control.
    public static func encode(_ s: Store) -> [UInt8] {
        let pieces = encodePieces(s)
        guard pieces.count > 1 else { return pieces.first ?? [] }
        var out: [UInt8] = []
        out.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for p in pieces { out.append(contentsOf: p) }
        return out
    }

    /// The bytes of `encode` in pieces of about `pieceBytes`, in order, as a commit writes them:
    /// a large store is held once while it is written, not grown, copied and joined.
    public static func encodePieces(_ s: Store) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var out: [UInt8] = []
        out.reserveCapacity(s.tasks.count < 2_000 ? 256 + s.tasks.count * 400 : pieceBytes)
        func key(_ k: String, first: Bool = false) {
            out.append(contentsOf: first ? Array("\n  ".utf8) : Array(",\n  ".utf8))
            JSONWriter.appendString(k, to: &out)
            out.append(contentsOf: Array(": ".utf8))
        }
        out.append(UInt8(ascii: "{"))
        key("format", first: true)
        JSONWriter.appendString(format, to: &out)
        key("version")
        out.append(contentsOf: Array(String(version).utf8))
        // Right after the version, where a writer finds it in the first bytes (StoreFile.commit).
        key("revision")
        out.append(contentsOf: Array(String(s.revision).utf8))
        key("nextId")
        out.append(contentsOf: Array(String(s.nextID).utf8))
        key("settings")
        JSONWriter.append(.object(settingsObject(s.settings)), to: &out, pretty: true, indent: 2, level: 1)
        key("projects")
        list(s.projects.map(projectObject), &out)
        key("areas")
        list(s.areas.map(areaObject), &out)
        key("filters")
        list(s.filters.map(filterObject), &out)
        key("tasks")
        appendTaskList(s.tasks, to: &out, pieces: &pieces)
        if !s.tombstoneMap.isEmpty {
            key("tombstones")
            list(Array(s.tombstones.suffix(Tombstone.limit)).map { JSONObject([("uid", .string($0.uid.description)), ("deletedAt", .string(TimeText.isoInstant($0.deletedAt, in: .utc)))]) }, &out)
        }
        if !s.calendars.isEmpty {
            key("calendars")
            JSONWriter.append(calendarsValue(s.calendars), to: &out, pretty: false, indent: 0, level: 0)
        }
        if let p = s.plan {
            key("plan")
            JSONWriter.append(planValue(p), to: &out, pretty: false, indent: 0, level: 0)
        }
        if !s.history.undoStack.isEmpty || !s.history.redoStack.isEmpty {
            key("history")
            appendHistory(s.history, to: &out)
        }
        // Only once the store was linked or stamped, so a store that never synced keeps its bytes.
        if let v = s.sync.json {
            key(syncKey)
            appendSync(v, to: &out, pieces: &pieces)
        }
        for (k, v) in s.extra.members {
            key(k)
            JSONWriter.append(v, to: &out, pretty: true, indent: 2, level: 1)
        }
        // Last, the checksum of every byte before it: a reader tells the file Kept wrote from
        // one changed since, by hand or by damage.
        var sum = StoreSum()
        for p in pieces { sum.update(p) }
        sum.update(out)
        key(checksumKey)
        JSONWriter.appendString(checksumText(sum.value), to: &out)
        out.append(contentsOf: Array("\n}\n".utf8))
        pieces.append(out)
        return pieces
    }

    /// A list with one compact item per line.
    package static func list(_ items: [JSONObject], _ out: inout [UInt8]) {
        guard !items.isEmpty else {
            out.append(contentsOf: Array("[]".utf8))
            return
        }
        out.append(UInt8(ascii: "["))
        for (k, o) in items.enumerated() {
            out.append(contentsOf: Array((k == 0 ? "\n    " : ",\n    ").utf8))
            JSONWriter.append(.object(o), to: &out, pretty: false, indent: 0, level: 0)
        }
        out.append(contentsOf: Array("\n  ]".utf8))
    }

    package static func areaObject(_ a: Area) -> JSONObject {
        var o = JSONObject([("name", .string(a.name))])
        if a.uid != Area.uid(named: a.name) { o["uid"] = .string(a.uid.description) }
        return merge(o, a.extra)
    }

    package static func merge(_ o: JSONObject, _ extra: JSONObject) -> JSONObject {
        var m = o
        for (k, v) in extra.members where m[k] == nil { m[k] = v }
        return m
    }

    package static func settingsObject(_ s: Settings) -> JSONObject {
        var o = JSONObject()
        let standard = Settings()
        for spec in Settings.specs {
            let v = spec.get(s)
            if spec.key == "zone", v.isEmpty { continue }
            // Settings newer than the format's first version are written only when changed.
            if !spec.storedWhenDefault, v == spec.get(standard) { continue }
            o[spec.key] = .string(v)
        }
        return merge(o, s.extra)
    }


}
