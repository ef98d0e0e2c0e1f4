// The shape `task export` writes, read straight from the bytes: no white space, the keys Kept
// maps, plain ASCII strings without escapes, dates in the compact form, a whole number of
// minutes. Anything else (an escape, a byte past ASCII, an unknown key, a key twice, null, an
// odd type or date, the end of the bytes read so far) gives up, and the general reader
// (TaskwarriorRecord.read) reads the record from its start, with its mappings and its errors.
// InteropTests holds the two readers to the same records and the same errors.

import KeptRules
import KeptDomain
import KeptFiles

/// A cursor over one record's bytes for the fast path; every read is bounds-checked.
package struct TaskwarriorScan {
    package let b: UnsafeBufferPointer<UInt8>
    package var i: Int

    /// The byte at `k`, or 0 past the end (0 is never one the scan looks for).
    @inline(__always) package func at(_ k: Int) -> UInt8 { k >= 0 && k < b.count ? b[k] : 0 }

    @inline(__always) package mutating func eat(_ c: UInt8) -> Bool {
        guard at(i) == c else { return false }
        i += 1
        return true
    }

    /// A string of plain ASCII (no escape, no control character): the bytes between its quotes.
    @inline(__always) package mutating func plain() -> Range<Int>? {
        guard at(i) == 0x22 else { return nil }
        let s = i + 1
        let e = JSONReader.plainRunEnd(b, from: s)
        guard e < b.count, b[e] == 0x22 else { return nil }
        i = e + 1
        return s..<e
    }

    /// A key and its colon.
    @inline(__always) package mutating func key() -> Range<Int>? {
        guard let k = plain(), eat(UInt8(ascii: ":")) else { return nil }
        return k
    }

    package func bytes(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: b[r]) }

    package func string(_ r: Range<Int>) -> String { String(decoding: bytes(r), as: UTF8.self) }

    package mutating func plainString() -> String? { plain().map(string) }

    /// A date in the compact form (20260615T070000Z).
    package mutating func date() -> Instant? {
        guard let r = plain(), r.count == 16 else { return nil }
        return InteropValues.compactUTC(bytes(r))
    }

    /// A status as its literal when it is one of Taskwarrior's (no String built), else as written.
    package func status(_ r: Range<Int>) -> String {
        switch r.count {
        case 7: return equals(r, "pending") ? "pending" : equals(r, "deleted") ? "deleted" : equals(r, "waiting") ? "waiting" : string(r)
        case 9: return equals(r, "completed") ? "completed" : equals(r, "recurring") ? "recurring" : string(r)
        default: return string(r)
        }
    }

    /// A priority the same way.
    package func priority(_ r: Range<Int>) -> String {
        guard r.count == 1 else { return string(r) }
        switch b[r.lowerBound] {
        case UInt8(ascii: "H"): return "H"
        case UInt8(ascii: "M"): return "M"
        case UInt8(ascii: "L"): return "L"
        default: return string(r)
        }
    }

    /// True when the bytes of `r` are `word`.
    package func equals(_ r: Range<Int>, _ word: StaticString) -> Bool {
        guard r.count == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<r.count where b[r.lowerBound + k] != w[k] { return false }
        return true
    }

    /// `[item, …]`, each read by `item`.
    package mutating func list<T>(_ item: (inout TaskwarriorScan) -> T?) -> [T]? {
        guard eat(UInt8(ascii: "[")) else { return nil }
        var out: [T] = []
        if eat(UInt8(ascii: "]")) { return out }
        repeat {
            guard let v = item(&self) else { return nil }
            out.append(v)
        } while eat(UInt8(ascii: ","))
        return eat(UInt8(ascii: "]")) ? out : nil
    }

    /// A whole number of minutes as JSON writes it (no sign, no leading zero, no fraction),
    /// at most a million, as the general reader takes it.
    package mutating func minutes() -> Int? {
        var n = 0
        let s = i
        while i - s < 8, at(i) >= 0x30, at(i) <= 0x39 {
            n = n * 10 + Int(at(i) - 0x30)
            i += 1
        }
        let digits = i - s
        guard digits > 0, digits < 8, !(digits > 1 && at(s) == 0x30), n <= 1_000_000 else { return nil }
        // A fraction or an exponent is the general reader's.
        let next = at(i)
        guard next == UInt8(ascii: ",") || next == UInt8(ascii: "}") else { return nil }
        return n
    }
}

extension TaskwarriorRecord {
    /// The keys of the fast path, one bit each, so a key written twice gives up.
    package enum FastKey: Int {
        case uuid, description, status, project, tags, priority, due, scheduled, entry, modified, end
        case annotations, estimate, rrule, recur, until, parent
    }

    package static func fastKey(_ s: TaskwarriorScan, _ k: Range<Int>) -> FastKey? {
        switch k.count {
        case 3: return s.equals(k, "due") ? .due : s.equals(k, "end") ? .end : nil
        case 4: return s.equals(k, "uuid") ? .uuid : s.equals(k, "tags") ? .tags : nil
        case 5:
            return s.equals(k, "entry") ? .entry : s.equals(k, "rrule") ? .rrule
                : s.equals(k, "recur") ? .recur : s.equals(k, "until") ? .until : nil
        case 6: return s.equals(k, "status") ? .status : s.equals(k, "parent") ? .parent : nil
        case 7: return s.equals(k, "project") ? .project : nil
        case 8:
            return s.equals(k, "modified") ? .modified : s.equals(k, "priority") ? .priority
                : s.equals(k, "estimate") ? .estimate : nil
        case 9: return s.equals(k, "scheduled") ? .scheduled : nil
        case 11: return s.equals(k, "description") ? .description : s.equals(k, "annotations") ? .annotations : nil
        default: return nil
        }
    }

    /// The record whose `{` is at `start` and the offset after its `}`, when it has the usual
    /// shape; nil when the general reader is to read it.
    package static func fast(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> (TaskwarriorRecord, end: Int)? {
        var s = TaskwarriorScan(b: b, i: start)
        var t = TaskwarriorRecord()
        var seen = 0
        guard s.eat(UInt8(ascii: "{")) else { return nil }
        if s.eat(UInt8(ascii: "}")) { return nil }
        repeat {
            guard let k = s.key(), let key = fastKey(s, k), seen & (1 << key.rawValue) == 0 else { return nil }
            seen |= 1 << key.rawValue
            switch key {
            case .uuid:
                guard let r = s.plain(), let u = TaskUID.parse(s.bytes(r)) else { return nil }
                t.uuid = u
            case .description: guard let v = s.plainString() else { return nil }; t.description = v
            case .status: guard let r = s.plain() else { return nil }; t.status = s.status(r)
            case .project: guard let v = s.plainString() else { return nil }; t.project = v
            case .priority: guard let r = s.plain() else { return nil }; t.priority = s.priority(r)
            case .rrule: guard let v = s.plainString() else { return nil }; t.rrule = v
            case .recur:
                guard let v = s.plainString() else { return nil }
                t.recur = v
                t.other["recur"] = .string(v)
            case .parent:
                guard let v = s.plainString() else { return nil }
                t.parent = v
                t.other["parent"] = .string(v)
            case .due: guard let v = s.date() else { return nil }; t.due = v
            case .scheduled: guard let v = s.date() else { return nil }; t.scheduled = v
            case .entry: guard let v = s.date() else { return nil }; t.entry = v
            case .modified: guard let v = s.date() else { return nil }; t.modified = v
            case .end: guard let v = s.date() else { return nil }; t.end = v
            case .until:
                guard let v = s.date() else { return nil }
                t.until = v
                t.other["until"] = .string(InteropValues.compactUTC(v))
            case .estimate: guard let v = s.minutes() else { return nil }; t.estimate = v
            case .tags: guard let v = s.list({ $0.plainString() }) else { return nil }; t.tags = v
            case .annotations: guard let v = s.list(fastAnnotation) else { return nil }; t.annotations = v
            }
        } while s.eat(UInt8(ascii: ","))
        guard s.eat(UInt8(ascii: "}")), t.description != nil else { return nil }
        return (t, s.i)
    }

    /// `{"entry":"…","description":"…"}`, in either order.
    package static func fastAnnotation(_ s: inout TaskwarriorScan) -> (entry: Instant?, text: String)? {
        guard s.eat(UInt8(ascii: "{")) else { return nil }
        var e: Instant? = nil
        var d: String? = nil
        if s.eat(UInt8(ascii: "}")) { return (nil, "") }
        repeat {
            guard let k = s.key() else { return nil }
            if s.equals(k, "entry"), e == nil {
                guard let v = s.date() else { return nil }
                e = v
            } else if s.equals(k, "description"), d == nil {
                guard let v = s.plainString() else { return nil }
                d = v
            } else {
                return nil
            }
        } while s.eat(UInt8(ascii: ","))
        guard s.eat(UInt8(ascii: "}")) else { return nil }
        return (e, d ?? "")
    }
}
