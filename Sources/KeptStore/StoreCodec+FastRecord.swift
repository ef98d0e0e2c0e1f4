// The fast path of reading a task record. A record in the shape kept writes (no white space
// inside it, known keys, strings without escapes, values of the usual types) is read straight
// from the bytes by one function with no error handling. Anything else, and every error, makes
// it give up; the record is then read again from its start by `readTask`, which accepts or
// refuses it. So the fast path never decides what a store means: it only skips the general
// reader where that reader would read the record the same way (FastRecordTests hold both to it).

import KeptRules
import KeptDomain
import KeptFiles

extension StoreCodec {
    /// Reads the record whose `{` is at `start` into `t` and returns the offset after its `}`,
    /// or nil when the record is not in the fast shape (`t` is then left part-filled).
    package static func readTaskFast(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, into t: inout TaskRecord) -> Int? {
        t.reset(at: start)
        guard byte(b, start) == UInt8(ascii: "{"), byte(b, start + 1) == quote else { return nil }
        var p = start + 1
        // A key written twice is the general reader's to refuse (JSONReader+Keys).
        var seen: UInt32 = 0
        while true {
            guard let (key, keyEnd) = fastTaskKey(b, p), seen & key.bit == 0 else { return nil }
            seen |= key.bit
            p = keyEnd + 2
            guard let next = fastValue(key, b, p, &t) else { return nil }
            p = next
            let x = byte(b, p)
            p += 1
            if x == comma, byte(b, p) == quote { continue }
            if x == UInt8(ascii: "}") { break }
            return nil
        }
        guard t.hasID, t.hasTitle else { return nil }
        return p
    }

    /// Reads the value of `key` at `p` into `t`; the offset after it, or nil.
    @inline(__always)
    private static func fastValue(_ key: TaskKey, _ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ t: inout TaskRecord) -> Int? {
        switch key {
        case .id:
            guard let (v, end) = fastCount(b, p), v >= 1, v <= Store.maxID else { return nil }
            t.id = v
            t.hasID = true
            return end
        case .uid:
            guard let s = fastString(b, p), let u = TaskUID.parse(slice(b, s)) else { return nil }
            t.uid = u
            return s.end + 1
        case .title:
            guard let s = fastString(b, p) else { return nil }
            t.title = s
            t.hasTitle = true
            return s.end + 1
        case .status:
            guard let s = fastString(b, p), s.count > 0 else { return nil }
            t.status = s
            return s.end + 1
        case .priority:
            guard let s = fastString(b, p), let pr = canonicalPriority(b, s.start, s.count) else { return nil }
            t.priority = pr
            return s.end + 1
        case .project: return fastStringOrNull(b, p, &t.project)
        case .area: return fastStringOrNull(b, p, &t.area)
        case .description: return fastStringOrNull(b, p, &t.description)
        case .goal: return fastStringOrNull(b, p, &t.goal)
        case .tags: return fastStrings(b, p, &t.tags)
        case .notes: return fastStrings(b, p, &t.notes)
        case .due: return fastDue(b, p, &t.due)
        case .start: return fastDue(b, p, &t.startDue)
        case .estimate: return fastEstimate(b, p, &t.estimate)
        case .repeat: return fastRepeat(b, p, &t)
        case .createdAt:
            guard let s = fastString(b, p), let i = TimeText.parseISOInstant(slice(b, s)) else { return nil }
            t.createdAt = i
            return s.end + 1
        case .modifiedAt:
            guard let s = fastString(b, p), let i = TimeText.parseISOInstant(slice(b, s)) else { return nil }
            t.modifiedAt = i
            return s.end + 1
        case .completedAt:
            if isNull(b, p) { t.completedAt = nil; return p + 4 }
            guard let s = fastString(b, p), let i = TimeText.parseISOInstant(slice(b, s)) else { return nil }
            t.completedAt = i
            return s.end + 1
        case .heldUntil: return fastDateOrNull(b, p, &t.heldUntil)
        case .notTodayOn: return fastDateOrNull(b, p, &t.notTodayOn)
        case .parent: return fastCountOrNull(b, p, &t.parent)
        case .nextOccurrence: return fastCountOrNull(b, p, &t.nextOccurrence)
        case .pristine:
            if match(b, p, "true") { t.pristine = true; return p + 4 }
            if match(b, p, "false") { t.pristine = false; return p + 5 }
            return nil
        case .steps, .reminders, .comments: return nil
        }
    }

    // MARK: the pieces

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")

    /// The byte at `k`, or 0 outside the buffer.
    @inline(__always)
    private static func byte(_ b: UnsafeBufferPointer<UInt8>, _ k: Int) -> UInt8 {
        k >= 0 && k < b.count ? b[k] : 0
    }

    /// The bytes between the quotes of a plain key at `p` followed at once by its colon.
    @inline(__always)
    private static func fastKey(_ b: UnsafeBufferPointer<UInt8>, _ p: Int) -> (Int, Int)? {
        guard byte(b, p) == quote else { return nil }
        let end = JSONReader.plainRunEnd(b, from: p + 1)
        guard byte(b, end) == quote, byte(b, end + 1) == UInt8(ascii: ":") else { return nil }
        return (p + 1, end)
    }

    /// The known key at `p` and the offset of its closing quote, when a colon follows it. The
    /// 16 bytes after the opening quote are loaded once: the first quote among them ends the
    /// key, and the masked words name it (a known key is letters only, so a match is exact).
    @inline(__always)
    private static func fastTaskKey(_ b: UnsafeBufferPointer<UInt8>, _ p: Int) -> (TaskKey, Int)? {
        guard byte(b, p) == quote else { return nil }
        guard p >= 0, p + 17 <= b.count, let base = b.baseAddress else {
            guard let (s, e) = fastKey(b, p), let key = TaskKey.of(b, s, e - s) else { return nil }
            return (key, e)
        }
        let raw = UnsafeRawPointer(base + p + 1)
        let w0 = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let w1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let n: Int
        if let k = firstQuote(w0) {
            n = k
        } else if let k = firstQuote(w1) {
            n = 8 + k
        } else {
            return nil
        }
        let (k0, k1) = ByteWords.masked(w0, w1, n)
        let end = p + 1 + n
        guard let key = TaskKey.of(k0, k1, n), byte(b, end + 1) == UInt8(ascii: ":") else { return nil }
        return (key, end)
    }

    /// The index of the first '"' byte in a little-endian word, or nil. (The lowest flagged
    /// byte of the zero-byte test is always a true one.)
    @inline(__always)
    private static func firstQuote(_ w: UInt64) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let x = w ^ (ones &* 0x22)
        let hit = (x &- ones) & ~x & (ones &* 0x80)
        return hit == 0 ? nil : hit.trailingZeroBitCount >> 3
    }

    /// The string at `p` when it has no escape and no control character (UTF-8 checked).
    @inline(__always)
    private static func fastString(_ b: UnsafeBufferPointer<UInt8>, _ p: Int) -> JSONStringRef? {
        guard byte(b, p) == quote else { return nil }
        var k = p + 1
        while true {
            k = JSONReader.plainRunEnd(b, from: k)
            let x = byte(b, k)
            if x == quote, k < b.count { return JSONStringRef(start: p + 1, end: k, escaped: false) }
            guard x >= 0x80, let next = JSONReader.utf8SequenceEnd(b, at: k) else { return nil }
            k = next
        }
    }

    @inline(__always)
    private static func slice(_ b: UnsafeBufferPointer<UInt8>, _ s: JSONStringRef) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: b[s.start..<s.end])
    }

    @inline(__always)
    private static func isNull(_ b: UnsafeBufferPointer<UInt8>, _ p: Int) -> Bool {
        match(b, p, "null")
    }

    /// Whether the bytes at `p` spell `word`.
    @inline(__always)
    private static func match(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard p >= 0, p + n <= b.count else { return false }
        let w = word.utf8Start
        for k in 0..<n where b[p + k] != w[k] { return false }
        return true
    }

    /// Whether the key between `s` and `e` is `word`.
    @inline(__always)
    private static func key(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int, _ word: StaticString) -> Bool {
        e - s == word.utf8CodeUnitCount && match(b, s, word)
    }

    /// A whole number of at most 15 digits, with no sign, fraction or exponent, followed by the
    /// end of its member or element.
    @inline(__always)
    private static func fastCount(_ b: UnsafeBufferPointer<UInt8>, _ p: Int) -> (Int, Int)? {
        var k = p
        var v = 0
        let first = byte(b, k)
        if first == UInt8(ascii: "0") {
            k += 1
        } else {
            while k - p < 15 {
                let d = byte(b, k) &- UInt8(ascii: "0")
                guard d < 10 else { break }
                v = v * 10 + Int(d)
                k += 1
            }
        }
        guard k > p else { return nil }
        let x = byte(b, k)
        guard x == comma || x == UInt8(ascii: "}") || x == UInt8(ascii: "]") else { return nil }
        return (v, k)
    }

    @inline(__always)
    private static func fastCountOrNull(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ out: inout Int?) -> Int? {
        if isNull(b, p) { out = nil; return p + 4 }
        guard let (v, end) = fastCount(b, p) else { return nil }
        out = v
        return end
    }

    @inline(__always)
    private static func fastStringOrNull(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ out: inout JSONStringRef?) -> Int? {
        if isNull(b, p) { out = nil; return p + 4 }
        guard let s = fastString(b, p) else { return nil }
        out = s
        return s.end + 1
    }

    private static func fastDateOrNull(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ out: inout CivilDate?) -> Int? {
        if isNull(b, p) { out = nil; return p + 4 }
        guard let s = fastString(b, p), let d = CivilDate.parseISO(slice(b, s)) else { return nil }
        out = d
        return s.end + 1
    }

    /// A list of strings, replacing what a repeated key read before (the last one wins).
    private static func fastStrings(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ out: inout [JSONStringRef]) -> Int? {
        guard byte(b, p) == UInt8(ascii: "[") else { return nil }
        out.removeAll(keepingCapacity: true)
        var k = p + 1
        if byte(b, k) == UInt8(ascii: "]") { return k + 1 }
        while true {
            guard let s = fastString(b, k) else { return nil }
            out.append(s)
            k = s.end + 1
            let x = byte(b, k)
            k += 1
            if x == comma { continue }
            return x == UInt8(ascii: "]") ? k : nil
        }
    }

    /// Walks the members of a small object at `p`: `body` gets each key's span and the offset
    /// of its value and returns the offset after the value, or nil to give up.
    @inline(__always)
    private static func fastObject(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ body: (Int, Int, Int) -> Int?) -> Int? {
        guard byte(b, p) == UInt8(ascii: "{"), byte(b, p + 1) == quote else { return nil }
        var k = p + 1
        while true {
            guard let (s, e) = fastKey(b, k), let next = body(s, e, e + 2) else { return nil }
            let x = byte(b, next)
            k = next + 1
            if x == comma, byte(b, k) == quote { continue }
            return x == UInt8(ascii: "}") ? k : nil
        }
    }

    /// `{"date":"2026-06-15","time":"15:00"}` or `null`; as `decodeDue`, a null time keeps
    /// the time read before it.
    private static func fastDue(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ out: inout Due?) -> Int? {
        if isNull(b, p) { out = nil; return p + 4 }
        var date: CivilDate? = nil
        var time: WallTime? = nil
        // A key written twice is left to the general reader, which refuses it.
        var sawTime = false
        let end = fastObject(b, p) { s, e, v in
            if key(b, s, e, "date") {
                guard date == nil, let str = fastString(b, v), let d = CivilDate.parseISO(slice(b, str)) else { return nil }
                date = d
                return str.end + 1
            }
            guard key(b, s, e, "time"), !sawTime else { return nil }
            sawTime = true
            if isNull(b, v) { return v + 4 }
            guard let str = fastString(b, v), let w = WallTime.parseISO(slice(b, str)) else { return nil }
            time = w
            return str.end + 1
        }
        guard let end, let date else { return nil }
        out = Due(date: date, time: time)
        return end
    }

    /// `{"minutes":20,"source":"user"}` or `null`.
    private static func fastEstimate(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ out: inout Estimate?) -> Int? {
        if isNull(b, p) { out = nil; return p + 4 }
        var minutes: Int? = nil
        var source = EstimateSource.user
        var sawSource = false
        let end = fastObject(b, p) { s, e, v in
            if key(b, s, e, "minutes") {
                guard minutes == nil, let (n, end) = fastCount(b, v) else { return nil }
                minutes = n
                return end
            }
            guard key(b, s, e, "source"), !sawSource, let str = fastString(b, v) else { return nil }
            sawSource = true
            if key(b, str.start, str.end, "user") {
                source = .user
            } else if key(b, str.start, str.end, "suggested") {
                source = .suggested
            } else {
                return nil
            }
            return str.end + 1
        }
        guard let end, let minutes else { return nil }
        out = Estimate(minutes: minutes, source: source)
        return end
    }

    /// `{"text":"every day","rrule":"FREQ=DAILY","anchor":"2026-06-15"}` or `null`; as
    /// `readRepeat`, a null rrule or anchor is passed over.
    private static func fastRepeat(_ b: UnsafeBufferPointer<UInt8>, _ p: Int, _ t: inout TaskRecord) -> Int? {
        if isNull(b, p) { t.hasRepeat = false; return p + 4 }
        var text: JSONStringRef? = nil
        var rrule: JSONStringRef? = nil
        var anchor: JSONStringRef? = nil
        var seen: UInt8 = 0
        let end = fastObject(b, p) { s, e, v in
            let isText = key(b, s, e, "text")
            let isRule = !isText && key(b, s, e, "rrule")
            guard isText || isRule || key(b, s, e, "anchor") else { return nil }
            let bit: UInt8 = isText ? 1 : (isRule ? 2 : 4)
            guard seen & bit == 0 else { return nil }
            seen |= bit
            if !isText, isNull(b, v) { return v + 4 }
            guard let str = fastString(b, v) else { return nil }
            if isText { text = str } else if isRule { rrule = str } else { anchor = str }
            return str.end + 1
        }
        guard let end, let text else { return nil }
        t.repeatAnchor = nil
        if let a = anchor {
            guard let d = CivilDate.parseISO(slice(b, a)) else { return nil }
            t.repeatAnchor = d
        }
        t.repeatRRULE = rrule
        t.repeatText = text
        t.repeatAt = p
        t.hasRepeat = true
        return end
    }
}
