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
        func key(_ k: StaticString) {
            out.append(UInt8(ascii: ","))
            out.append(UInt8(ascii: "\""))
            lit(k)
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
        }
        // Fixed-width pieces (days, times, instants, uids) are a template copied to the stack,
        // its digits filled in, and appended in one go.
        func stamp(_ template: StaticString, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
            let n = template.utf8CodeUnitCount
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { b in
                guard let p = b.baseAddress else { return }
                p.initialize(from: template.utf8Start, count: n)
                fill(p)
                out.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
            }
        }
        func two(_ p: UnsafeMutablePointer<UInt8>, _ at: Int, _ n: Int) {
            p[at] = 0x30 + UInt8(truncatingIfNeeded: n / 10 % 10)
            p[at + 1] = 0x30 + UInt8(truncatingIfNeeded: n % 10)
        }
        /// `YYYY-MM-DD` at `at`.
        func ymd(_ p: UnsafeMutablePointer<UInt8>, _ at: Int, _ d: CivilDate) {
            let y = max(0, min(d.year, 9999))
            two(p, at, y / 100); two(p, at + 2, y % 100)
            two(p, at + 5, d.month); two(p, at + 8, d.day)
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
            if let t = d.time {
                stamp("{\"date\":\"0000-00-00\",\"time\":\"00:00\"}") { p in
                    ymd(p, 9, d.date)
                    two(p, 29, t.hour); two(p, 32, t.minute)
                }
            } else {
                stamp("{\"date\":\"0000-00-00\",\"time\":null}") { p in ymd(p, 9, d.date) }
            }
        }
        func date(_ d: CivilDate) { stamp("\"0000-00-00\"") { p in ymd(p, 1, d) } }
        func instant(_ i: Instant) {
            // TimeText.isoInstant(i, in: .utc): "2026-06-15T07:00:00+00:00".
            let s = i.clampedSeconds
            let day = CalendarMath.floorDivide(s, CalendarMath.secondsPerDay)
            let sec = s - day * CalendarMath.secondsPerDay
            stamp("\"0000-00-00T00:00:00+00:00\"") { p in
                ymd(p, 1, CivilDate(dayNumber: day))
                two(p, 12, sec / 3_600); two(p, 15, sec / 60 % 60); two(p, 18, sec % 60)
            }
        }
        func uid(_ u: TaskUID) {
            stamp("\"00000000-0000-0000-0000-000000000000\"") { p in
                // Each word's nibbles from its last, into the digits before `to`.
                func hex(_ w: inout UInt64, _ from: Int, _ to: Int) {
                    var k = to
                    while k > from {
                        k -= 1
                        let n = UInt8(truncatingIfNeeded: w & 0xF)
                        p[k] = n < 10 ? 0x30 + n : 0x57 + n
                        w >>= 4
                    }
                }
                var hi = u.hi, lo = u.lo
                hex(&hi, 15, 19); hex(&hi, 10, 14); hex(&hi, 1, 9)
                hex(&lo, 25, 37); hex(&lo, 20, 24)
            }
        }
        lit("{\"id\":"); int(t.id)
        lit(",\"uid\":"); uid(t.uid)
        lit(",\"title\":"); string(t.title)
        lit(",\"status\":"); string(t.status.rawValue)
        if let d = t.due { lit(",\"due\":"); due(d) }
        if let d = t.start { lit(",\"start\":"); due(d) }
        if t.priority != .none { lit(",\"priority\":"); string(t.priority.name) }
        if let p = t.project { lit(",\"project\":"); string(p) }
        if let a = t.area { lit(",\"area\":"); string(a) }
        if !t.tags.isEmpty { lit(",\"tags\":"); strings(t.tags) }
        if !t.notes.isEmpty { lit(",\"notes\":"); strings(t.notes) }
        if let d = t.description { lit(",\"description\":"); string(d) }
        if let r = t.repeatRule {
            lit(",\"repeat\":")
            JSONWriter.append(repeatValue(r), to: &out, pretty: false, indent: 0, level: 0)
        }
        if let e = t.estimate {
            lit(",\"estimate\":")
            lit("{\"minutes\":")
            int(e.minutes)
            if e.source == .user { lit(",\"source\":\"user\"}") } else { lit(",\"source\":\"suggested\"}") }
        }
        if let h = t.heldUntil { lit(",\"heldUntil\":"); date(h) }
        if let d = t.notTodayOn { lit(",\"notTodayOn\":"); date(d) }
        if let c = t.completedAt { lit(",\"completedAt\":"); instant(c) }
        lit(",\"createdAt\":"); instant(t.createdAt)
        lit(",\"modifiedAt\":"); instant(t.modifiedAt)
        if let p = t.parent { lit(",\"parent\":"); int(p) }
        if let n = t.nextOccurrence { lit(",\"nextOccurrence\":"); int(n) }
        if t.pristine { lit(",\"pristine\":"); lit("true") }
        if let g = t.goal { lit(",\"goal\":"); string(g) }
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
            tasks.withUnsafeBufferPointer { list in
                for k in r {
                    if k > 0 { into.append(0x2C) }
                    ("\n    " as StaticString).withUTF8Buffer { into.append(contentsOf: $0) }
                    appendTaskRecord(list[k], to: &into)
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
        if n >= 8_000, cores() >= 2 {
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
