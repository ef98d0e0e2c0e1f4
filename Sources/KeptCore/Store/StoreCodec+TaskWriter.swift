// A task's store record written straight into bytes: the same bytes as `taskObject` written
// compact, without building the object first. Tests/KeptCoreTests/InteropTests.swift holds the
// two to the same output.

import Dispatch
import Synchronization
extension StoreCodec {
    /// Appends `t` as `JSONWriter.append(.object(taskObject(t)))` would.
    static func appendTaskRecord(_ t: Task, to out: inout [UInt8]) {
        // No helper allocates: literals are appended from their static bytes.
        func lit(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
        func key(_ k: StaticString, first: Bool = false) {
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            lit(k)
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
        }
        func two(_ n: Int) {
            out.append(0x30 + UInt8(truncatingIfNeeded: n / 10 % 10))
            out.append(0x30 + UInt8(truncatingIfNeeded: n % 10))
        }
        func int(_ n: Int) {
            if n >= 0, n < 10 { out.append(0x30 + UInt8(n)); return }
            let m = n.magnitude
            if n < 0 { out.append(UInt8(ascii: "-")) }
            var p: UInt = 1
            while p <= m / 10 { p *= 10 }
            while p > 0 {
                out.append(0x30 + UInt8(truncatingIfNeeded: m / p % 10))
                p /= 10
            }
        }
        func ymd(_ d: CivilDate) {
            let y = max(0, min(d.year, 9999))
            two(y / 100); two(y % 100)
            out.append(UInt8(ascii: "-")); two(d.month)
            out.append(UInt8(ascii: "-")); two(d.day)
        }
        func string(_ s: String) { JSONWriter.appendString(s, to: &out) }
        func strings(_ a: [String]) {
            out.append(UInt8(ascii: "["))
            for (k, s) in a.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                string(s)
            }
            out.append(UInt8(ascii: "]"))
        }
        func due(_ d: Due) {
            lit("{\"date\":\"")
            ymd(d.date)
            if let t = d.time {
                lit("\",\"time\":\"")
                two(t.hour); out.append(UInt8(ascii: ":")); two(t.minute)
                lit("\"}")
            } else {
                lit("\",\"time\":null}")
            }
        }
        func date(_ d: CivilDate) { out.append(0x22); ymd(d); out.append(0x22) }
        func instant(_ i: Instant) {
            // TimeText.isoInstant(i, in: .utc): "2026-06-15T07:00:00+00:00".
            let s = i.clampedSeconds
            let day = CalendarMath.floorDivide(s, CalendarMath.secondsPerDay)
            let sec = s - day * CalendarMath.secondsPerDay
            out.append(0x22)
            ymd(CivilDate(dayNumber: day))
            out.append(UInt8(ascii: "T"))
            two(sec / 3_600); out.append(UInt8(ascii: ":"))
            two(sec / 60 % 60); out.append(UInt8(ascii: ":"))
            two(sec % 60)
            lit("+00:00\"")
        }
        func uid(_ u: TaskUID) {
            out.append(0x22)
            u.forEachByte { out.append($0) }
            out.append(0x22)
        }
        out.append(UInt8(ascii: "{"))
        key("id", first: true); int(t.id)
        key("uid"); uid(t.uid)
        key("title"); string(t.title)
        key("status"); string(t.status.rawValue)
        if let d = t.due { key("due"); due(d) }
        if let d = t.start { key("start"); due(d) }
        if t.priority != .none { key("priority"); string(t.priority.name) }
        if let p = t.project { key("project"); string(p) }
        if let a = t.area { key("area"); string(a) }
        if !t.tags.isEmpty { key("tags"); strings(t.tags) }
        if !t.notes.isEmpty { key("notes"); strings(t.notes) }
        if let d = t.description { key("description"); string(d) }
        if let r = t.repeatRule {
            key("repeat")
            JSONWriter.append(repeatValue(r), to: &out, pretty: false, indent: 0, level: 0)
        }
        if let e = t.estimate {
            key("estimate")
            lit("{\"minutes\":")
            int(e.minutes)
            if e.source == .user { lit(",\"source\":\"user\"}") } else { lit(",\"source\":\"suggested\"}") }
        }
        if let h = t.heldUntil { key("heldUntil"); date(h) }
        if let d = t.notTodayOn { key("notTodayOn"); date(d) }
        if let c = t.completedAt { key("completedAt"); instant(c) }
        key("createdAt"); instant(t.createdAt)
        key("modifiedAt"); instant(t.modifiedAt)
        if let p = t.parent { key("parent"); int(p) }
        if let n = t.nextOccurrence { key("nextOccurrence"); int(n) }
        if t.pristine { key("pristine"); lit("true") }
        if let g = t.goal { key("goal"); string(g) }
        func value(_ k: StaticString, _ v: JSONValue) {
            key(k)
            JSONWriter.append(v, to: &out, pretty: false, indent: 0, level: 0)
        }
        if !t.steps.isEmpty { value("steps", TaskJSON.steps(t.steps)) }
        if !t.reminders.isEmpty { value("reminders", .array(t.reminders.map { .object(reminderObject($0)) })) }
        if !t.comments.isEmpty { value("comments", .array(t.comments)) }
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
    /// The tasks list of a store file, one record a line; from 8,000 tasks on, the second half
    /// is written on another thread and the two joined (the bytes of one pass).
    static func appendTaskList(_ tasks: [Task], to out: inout [UInt8]) {
        guard !tasks.isEmpty else {
            out.append(contentsOf: Array("[]".utf8))
            return
        }
        @Sendable func run(_ r: Range<Int>, _ into: inout [UInt8]) {
            // Each task is read in place, not copied out of the array.
            tasks.withUnsafeBufferPointer { list in
                for k in r {
                    if k > 0 { into.append(0x2C) }
                    ("\n    " as StaticString).withUTF8Buffer { into.append(contentsOf: $0) }
                    appendTaskRecord(list[k], to: &into)
                }
            }
        }
        out.append(UInt8(ascii: "["))
        let n = tasks.count
        if n >= 8_000, cores() >= 2 {
            let mid = n / 2
            let box = Mutex<[UInt8]>([])
            let group = DispatchGroup()
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                var tail: [UInt8] = []
                tail.reserveCapacity((n - mid) * 280)
                run(mid..<n, &tail)
                box.withLock { $0 = tail }
            }
            out.reserveCapacity(out.count + n * 280)
            run(0..<mid, &out)
            group.wait()
            box.withLock { out.append(contentsOf: $0) }
        } else {
            out.reserveCapacity(out.count + n * 280)
            run(0..<n, &out)
        }
        out.append(contentsOf: Array("\n  ]".utf8))
    }
}
