// A task's repeat as stored: the rule, its anchor (R-REP-4), and the rule's words and RRULE.
// The store's loader refuses a repeat neither of whose texts reads (E0308); one made otherwise
// keeps its text and is written back as it was.

/// A repeat as a task holds it.
public struct RepeatSpec: Sendable, Equatable {
    /// The rule, or nil when the stored text and RRULE could not be read.
    public var rule: RepeatRule?
    /// The first due date of the series (or `from DATE`): every occurrence is computed from it.
    public var anchor: CivilDate?
    /// The words as stored, for a rule that could not be read.
    public var storedText: String
    public var storedRRULE: String?

    public init(rule: RepeatRule, anchor: CivilDate) {
        self.rule = rule
        self.anchor = anchor
        self.storedText = rule.text(anchor: anchor)
        self.storedRRULE = try? rule.rrule(anchor: anchor).get()
    }

    /// Reads a stored repeat: its text first, its RRULE second.
    public init(text: String, rrule: String? = nil, anchor: CivilDate? = nil) {
        self.storedText = text
        self.storedRRULE = rrule
        self.anchor = anchor
        if case .success(let (r, used)) = RepeatRule.parse(text), used == text.split(separator: " ").count {
            self.rule = r
        } else if let rr = rrule, case .success(let r) = RepeatRule.fromRRULE(rr) {
            self.rule = r
        } else {
            self.rule = nil
        }
    }

    /// The canonical words (R-REP-9).
    public var text: String { rule.map { $0.text(anchor: anchor) } ?? storedText }

    /// The RRULE, when the rule can be written as one.
    public var rrule: String? {
        guard let r = rule, let a = anchor else { return storedRRULE }
        return try? r.rrule(anchor: a).get()
    }
}
