// A task's store record written straight into bytes: the same bytes as `taskObject` written
// compact, without building the object first. Tests/KeptCoreTests/InteropTests.swift holds the
// two to the same output.

import KeptRules
import KeptDomain
import KeptFiles

import Dispatch
import Synchronization
extension StoreCodec {
    /// Appends `t` as `JSONWriter.append(.object(TaskJSON.record(t)))` would.
    static func appendTaskRecord(_ t: Task, to out: inout [UInt8]) {
        var room: [UInt8] = []
        appendTaskRecord(t, to: &out, room: &room)
    }

    /// The same, with `room` for the cursor kept from one record to the next (a writer of many
    /// records makes it once, and again only for a larger one). `fixedBytes` is the room made
    /// for everything but the strings (tests make it too small, to take the second pass).
    static func appendTaskRecord(_ t: Task, to out: inout [UInt8], room: inout [UInt8], fixedBytes: Int = 1_024) {
        // The fields of fixed shape and the strings go through a cursor into room made for the
        // most they can take, in two runs (the repeat, between them, and the lists and extra
        // fields after them are JSON values, written by JSONWriter). Should a write not fit,
        // the record is taken back and written again into twice the room.
        var strings = ByteCursor.quotedBound(t.title.utf8.count) + ByteCursor.quotedBound(t.status.rawValue.utf8.count)
        if let s = t.project { strings += ByteCursor.quotedBound(s.utf8.count) }
        if let s = t.area { strings += ByteCursor.quotedBound(s.utf8.count) }
        if let s = t.description { strings += ByteCursor.quotedBound(s.utf8.count) }
        if let s = t.goal { strings += ByteCursor.quotedBound(s.utf8.count) }
        for s in t.tags { strings += ByteCursor.quotedBound(s.utf8.count) + 1 }
        for s in t.notes { strings += ByteCursor.quotedBound(s.utf8.count) + 1 }
        // Every key, date, time, instant, uid, number and the priority are meant to fit in
        // `fixedBytes`.
        let start = out.count
        var need = strings + max(0, fixedBytes)
        while !appendFixedParts(t, to: &out, room: &room, need: need) {
            out.removeSubrange(start...)
            need = max(2 * need, 64)
        }
        appendValueParts(t, to: &out)
    }

    /// The fixed parts and strings of a record through a cursor, into room of at least `need`
    /// bytes; false, with `out` holding part of them, when they did not fit.
    private static func appendFixedParts(_ t: Task, to out: inout [UInt8], room: inout [UInt8], need: Int) -> Bool {
        if room.count < need { room = [UInt8](repeating: 0, count: max(need, 2 * room.count)) }
        return room.withUnsafeMutableBufferPointer { room -> Bool in
            guard var c = ByteCursor(room) else { return false }
            // The helpers take the cursor as a parameter, not a capture: a captured variable
            // passed to calls into another module is checked for exclusive access at run time.
            func due(_ d: Due, _ c: inout ByteCursor) {
                c.lit("{\"date\":\"")
                c.ymd(d.date)
                if let time = d.time {
                    c.lit("\",\"time\":\"")
                    c.two(time.hour)
                    c.byte(UInt8(ascii: ":"))
                    c.two(time.minute)
                    c.lit("\"}")
                } else {
                    c.lit("\",\"time\":null}")
                }
            }
            func strings(_ a: [String], _ c: inout ByteCursor) {
                c.byte(UInt8(ascii: "["))
                for (k, s) in a.enumerated() {
                    if k > 0 { c.byte(UInt8(ascii: ",")) }
                    c.quoted(s)
                }
                c.byte(UInt8(ascii: "]"))
            }
            c.lit("{\"id\":"); c.int(t.id)
            c.lit(",\"uid\":"); c.uid(hi: t.uid.hi, lo: t.uid.lo)
            c.lit(",\"title\":"); c.quoted(t.title)
            c.lit(",\"status\":"); c.quoted(t.status.rawValue)
            if let d = t.due { c.lit(",\"due\":"); due(d, &c) }
            if let d = t.start { c.lit(",\"start\":"); due(d, &c) }
            if t.priority != .none { c.lit(",\"priority\":"); c.quoted(t.priority.name) }
            if let p = t.project { c.lit(",\"project\":"); c.quoted(p) }
            if let a = t.area { c.lit(",\"area\":"); c.quoted(a) }
            if !t.tags.isEmpty { c.lit(",\"tags\":"); strings(t.tags, &c) }
            if !t.notes.isEmpty { c.lit(",\"notes\":"); strings(t.notes, &c) }
            if let d = t.description { c.lit(",\"description\":"); c.quoted(d) }
            if let r = t.repeatRule {
                c.lit(",\"repeat\":")
                guard !c.overflowed else { return false }
                out.append(contentsOf: c.written)
                c.restart()
                JSONWriter.append(TaskJSON.repeatRecord(r), to: &out, pretty: false, indent: 0, level: 0)
            }
            if let e = t.estimate {
                c.lit(",\"estimate\":{\"minutes\":")
                c.int(e.minutes)
                if e.source == .user { c.lit(",\"source\":\"user\"}") } else { c.lit(",\"source\":\"suggested\"}") }
            }
            if let h = t.heldUntil { c.lit(",\"heldUntil\":"); c.quotedDate(h) }
            if let d = t.notTodayOn { c.lit(",\"notTodayOn\":"); c.quotedDate(d) }
            if let i = t.completedAt { c.lit(",\"completedAt\":"); c.quotedInstant(i) }
            c.lit(",\"createdAt\":"); c.quotedInstant(t.createdAt)
            c.lit(",\"modifiedAt\":"); c.quotedInstant(t.modifiedAt)
            if let p = t.parent { c.lit(",\"parent\":"); c.int(p) }
            if let n = t.nextOccurrence { c.lit(",\"nextOccurrence\":"); c.int(n) }
            if t.pristine { c.lit(",\"pristine\":true") }
            if let g = t.goal { c.lit(",\"goal\":"); c.quoted(g) }
            guard !c.overflowed else { return false }
            out.append(contentsOf: c.written)
            return true
        }
    }

    /// The parts of a record written as JSON values: steps, reminders, comments, extra fields.
    private static func appendValueParts(_ t: Task, to out: inout [UInt8]) {
        func key(_ k: StaticString, _ out: inout [UInt8]) {
            out.append(UInt8(ascii: ","))
            out.append(UInt8(ascii: "\""))
            k.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
        }
        func value(_ k: StaticString, _ v: JSONValue, _ out: inout [UInt8]) {
            key(k, &out)
            JSONWriter.append(v, to: &out, pretty: false, indent: 0, level: 0)
        }
        if !t.steps.isEmpty { value("steps", TaskJSON.steps(t.steps), &out) }
        if !t.reminders.isEmpty { value("reminders", .array(t.reminders.map { .object(TaskJSON.reminderObject($0)) }), &out) }
        if !t.comments.isEmpty { value("comments", .array(t.comments), &out) }
        for (k, v) in t.extra.members {
            out.append(UInt8(ascii: ","))
            JSONWriter.appendString(k, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.append(v, to: &out, pretty: false, indent: 0, level: 0)
        }
        out.append(UInt8(ascii: "}"))
    }
}

extension StoreCodec {
    /// How large a piece of a written store grows before the next one is started: a store is
    /// written in pieces of about this size, never grown and copied, nor joined into one.
    static let pieceBytes = 1 << 20

    /// The tasks list of a store file, one record a line, continuing `out`; each piece that
    /// fills up is moved to `pieces` and `out` goes on with a new one. From 8,000 tasks on, the
    /// second half is written on another thread (the bytes of one pass, in the same order).
    static func appendTaskList(_ tasks: [Task], to out: inout [UInt8], pieces: inout [[UInt8]]) {
        guard !tasks.isEmpty else {
            out.append(contentsOf: Array("[]".utf8))
            return
        }
        @Sendable func run(_ r: Range<Int>, _ into: inout [UInt8], _ full: inout [[UInt8]]) {
            // Each task is read in place, not copied out of the array.
            var room: [UInt8] = []
            tasks.withUnsafeBufferPointer { list in
                for k in r {
                    if k > 0 { into.append(0x2C) }
                    ("\n    " as StaticString).withUTF8Buffer { into.append(contentsOf: $0) }
                    appendTaskRecord(list[k], to: &into, room: &room)
                    if into.count >= pieceBytes - 16_384 {
                        full.append(into)
                        into = []
                        into.reserveCapacity(pieceBytes)
                    }
                }
            }
        }
        out.append(UInt8(ascii: "["))
        let n = tasks.count
        if n >= 8_000, Cores.online() >= 2 {
            let mid = n / 2
            let box = Mutex<(full: [[UInt8]], last: [UInt8])>(([], []))
            let group = DispatchGroup()
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                var full: [[UInt8]] = []
                var last: [UInt8] = []
                last.reserveCapacity(pieceBytes)
                run(mid..<n, &last, &full)
                box.withLock { $0 = (full, last) }
            }
            run(0..<mid, &out, &pieces)
            group.wait()
            // The first half's last piece ends where the second's first begins.
            pieces.append(out)
            out = []
            box.withLock { tail in
                pieces.append(contentsOf: tail.full)
                swap(&out, &tail.last)
            }
        } else {
            run(0..<n, &out, &pieces)
        }
        out.append(contentsOf: Array("\n  ]".utf8))
    }
}
