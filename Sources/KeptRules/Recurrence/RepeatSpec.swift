// A task's repeat as stored: the rule, its anchor (R-REP-4), the rule's words and RRULE, and the
// occurrences taken out (EXDATE) and added (RDATE) as iCalendar has them. The store's loader
// refuses a repeat neither of whose texts reads (docs/STORE.md); one made otherwise keeps its text and
// is written back as it was.

/// A repeat as a task holds it.
public struct RepeatSpec: Sendable, Equatable {
    /// The rule, or nil when the stored text and RRULE could not be read.
    public var rule: RepeatRule?
    /// The first due date of the series (or `from DATE`): every occurrence is computed from it.
    public var anchor: CivilDate?
    /// The anchor's time of day, where the rule's dates depend on it: the phase of an hourly or
    /// minutely rule, and the hour or minute an RRULE without BYHOUR or BYMINUTE takes.
    public var anchorTime: WallTime?
    /// The words as stored, for a rule that could not be read.
    public var storedText: String
    public var storedRRULE: String?
    /// EXDATE: occurrences the series no longer has. A day without a time takes out every
    /// occurrence of that day.
    public var exceptions: [Due] = []
    /// RDATE: occurrences the series has besides the rule's.
    public var additions: [Due] = []

    public init(rule: RepeatRule, anchor: CivilDate, anchorTime: WallTime? = nil) {
        self.rule = rule
        self.anchor = anchor
        // `from DATE TIME` is the series' start; else the anchor's time where the dates depend on it.
        self.anchorTime = rule.fromTime.flatMap { _ in rule.from == anchor ? rule.fromTime : nil } ?? (rule.dependsOnAnchorTime ? anchorTime : nil)
        self.storedText = rule.text(anchor: anchor)
        self.storedRRULE = try? rule.rrule(anchor: anchor).get()
    }

    /// Reads a stored repeat: its text first (words, or an RRULE when the rule has no words),
    /// its RRULE second. The rule's week start is the one stored with it (`weekStart`, or the
    /// stored RRULE's WKST, Monday without one); a rule stored with neither takes the account's.
    public init(text: String, rrule: String? = nil, anchor: CivilDate? = nil, anchorTime: WallTime? = nil, weekStart: Weekday? = nil) {
        self.storedText = text
        self.storedRRULE = rrule
        self.anchor = anchor
        self.anchorTime = anchorTime
        var read: RepeatRule? = nil
        if case .success(let (r, used)) = RepeatRule.parse(text), used == text.split(separator: " ").count {
            read = r
        } else if case .success(let r) = RepeatRule.fromText(text) {
            read = r
        } else if let rr = rrule, case .success(let r) = RepeatRule.fromRRULE(rr) {
            read = r
        }
        if var r = read {
            if let w = weekStart {
                r.weekStart = w
            } else if r.weekStart == nil, r.weekStartMatters, let rr = rrule, case .success(let stored) = RepeatRule.fromRRULE(rr) {
                r.weekStart = stored.weekStart ?? .monday
            }
            self.rule = r
        } else {
            self.rule = nil
        }
    }

    /// The canonical words (R-REP-9), or the RRULE of a rule without words.
    public var text: String { rule.map { $0.text(anchor: anchor) } ?? storedText }

    /// The RRULE, when the rule can be written as one.
    public var rrule: String? {
        guard let r = rule, let a = anchor else { return storedRRULE }
        return try? r.rrule(anchor: a).get()
    }

    /// The week start to store beside the text: only when the rule's dates depend on it and no
    /// stored RRULE carries it.
    public var weekStartToStore: Weekday? {
        guard let r = rule, r.weekStartMatters, rrule == nil else { return nil }
        return r.weekStart
    }
}

extension RepeatRule {
    /// Whether the anchor's time of day changes the dates: an hourly or minutely rule, or a
    /// timed rule missing BYHOUR or BYMINUTE.
    public var dependsOnAnchorTime: Bool {
        frequency == .hourly || frequency == .minutely || (hourMask == 0) != (minuteMask == 0)
    }

    /// Whether text reads as an RRULE rather than words: it says `FREQ=`, in any case. On the
    /// bytes (an import asks once per repeating record).
    public static func saysFREQ(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b in
            let word: StaticString = "FREQ="
            let n = word.utf8CodeUnitCount
            guard b.count >= n else { return false }
            let w = word.utf8Start
            for start in 0...(b.count - n) {
                var k = 0
                // ASCII letters fold to upper case by clearing bit 5; '=' is compared as it is.
                while k < n, (k == n - 1 ? b[start + k] : b[start + k] & 0xDF) == w[k] { k += 1 }
                if k == n { return true }
            }
            return false
        }
    }

    /// A rule written as its text when words cannot say it: an RRULE, then `from DATE`.
    package static func fromText(_ text: String) -> Result<RepeatRule, RRULEError> {
        let parts = text.split(separator: " ").map(String.init)
        guard let first = parts.first, saysFREQ(first) else { return .failure(.notAnRRULE) }
        switch fromRRULE(first) {
        case .success(var r):
            if parts.count == 3 || parts.count == 4, parts[1] == "from", let d = CivilDate(iso: parts[2]) {
                r.from = d
                if parts.count == 4 {
                    var p = RepeatRuleParser(words: [parts[3]])
                    guard let t = p.timeOfDay() else { return .failure(.wordsAfterRRULE) }
                    r.fromTime = t
                }
            } else if parts.count != 1 {
                return .failure(.wordsAfterRRULE)
            }
            return .success(r)
        case .failure(let e):
            return .failure(e)
        }
    }
}
