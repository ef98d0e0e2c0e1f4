// A task's repeat as stored: its words and its RFC 5545 form. The rule model that computes
// occurrences from the anchor (R-REP-4) builds on this; until then the text is kept as given.

/// A repeat as the store keeps it.
public struct RepeatSpec: Sendable, Equatable {
    /// The canonical words (`Every month on the 31st`).
    public var text: String
    /// The RRULE, when the rule can be written as one.
    public var rrule: String?

    public init(text: String, rrule: String? = nil) {
        self.text = text
        self.rrule = rrule
    }
}
