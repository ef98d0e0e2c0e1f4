// List rows (R-VIEW-5, R-VIEW-7…10): ids right-aligned, titles in a column, then the date, then
// the marks (held, steps, repeat, done, priority, score). One layout serves a whole listing, its
// groups, sections and Done rows alike, so every row of it has the same columns (R-VIEW-8).
// Columns are measured in display width (DisplayWidth), and a listing fits the width it is
// given (R-VIEW-7): the title column is the widest title, or what the width leaves after the
// id and date columns, keeping at least 20 columns for titles; a title that does not fit is
// cut with `…`, and marks that do not fit after the date are cut the same way. With no width
// (output that is not a terminal, transcripts) nothing is cut. Colour (R-VIEW-10) wraps the
// text after it is measured, so it never moves a column.

/// The columns of a listing, and how it prints.
public struct RowLayout: Sendable {
    public var idWidth = 1
    public var titleWidth = 0
    public var dateWidth = 0
    /// The deepest indent of the listing's rows: a row indented less has a wider title
    /// column, so dates line up across indents (a view's Done rows under its rows).
    public var indent = 0
    /// The widest a row may be; nil for no limit.
    public var width: Int?
    /// Whether rows carry ANSI colour.
    public var color = false
}

/// What a row may be coloured by: SGR codes, and the one reset.
enum RowColor {
    static let reset = "\u{1B}[0m"
    static let red = "\u{1B}[31m"
    static let yellow = "\u{1B}[33m"
    static let cyan = "\u{1B}[36m"
    static let bold = "\u{1B}[1m"
    static let boldMagenta = "\u{1B}[1;35m"

    static func wrap(_ s: String, _ code: String?) -> String {
        guard let code, !s.isEmpty else { return s }
        return code + s + reset
    }
}

extension TaskText {
    /// The fewest columns a title keeps when a width cuts it, if the width has them.
    public static let minimumTitleWidth = 20

    /// The date column of a row.
    func dateText(_ t: Task) -> String { t.due.map { rowDate($0, open: t.isOpen) } ?? "" }

    /// The marks after the date, with the colour each one takes.
    func marks(_ t: Task, score: Double?) -> [(text: String, color: String?)] {
        var cols: [(String, String?)] = []
        // R-VIEW-5: a held task shows its return date; steps read 1/3; nothing is a zero.
        if let h = t.heldUntil, h > today, t.isOpen { cols.append(("Back " + TimeText.shortDate(h).split(separator: " ").dropFirst().joined(separator: " "), nil)) }
        if !t.steps.isEmpty { cols.append(("\(t.steps.filter(\.done).count)/\(t.steps.count)", nil)) }
        // R-REP-9: a list marks a repeating task; a completed occurrence drops the mark.
        if let r = t.repeatRule, t.isOpen { cols.append((escape("↻ " + r.text), RowColor.cyan)) }
        if t.status == .done { cols.append(("done", nil)) }
        if settings.rowDetail == .detailed, t.priority >= .high {
            cols.append(t.priority == .critical ? ("Critical", RowColor.boldMagenta) : ("High", RowColor.bold))
        }
        if let score { cols.append(("urgency " + Urgency.text(score), nil)) }
        return cols
    }

    /// The width of a row's marks, joined by two spaces.
    func marksWidth(_ m: [(text: String, color: String?)]) -> Int {
        m.isEmpty ? 0 : m.reduce(0) { $0 + DisplayWidth.of($1.text) } + 2 * (m.count - 1)
    }

    /// One layout for rows printed together: `blocks` are the tasks of each group or section
    /// with their indent; `scores` when the rows show urgency scores (`explain plan`).
    public func layout(_ blocks: [(tasks: [Task], indent: Int)], scores: Bool = false, width: Int?, color: Bool) -> RowLayout {
        var l = RowLayout(width: width.map { max(1, $0) }, color: color)
        var maxTitle = 0, maxIndent = 0, maxMarks = 0
        for b in blocks where !b.tasks.isEmpty {
            maxIndent = max(maxIndent, b.indent)
            for t in b.tasks {
                l.idWidth = max(l.idWidth, String(t.id).count)
                maxTitle = max(maxTitle, DisplayWidth.of(escape(t.title)))
                l.dateWidth = max(l.dateWidth, DisplayWidth.of(dateText(t)))
                // The marks matter only to a width. A score is a number of a few digits;
                // "urgency 10.0" stands for it.
                if width != nil { maxMarks = max(maxMarks, marksWidth(marks(t, score: scores ? 10 : nil))) }
            }
        }
        l.titleWidth = maxTitle
        l.indent = maxIndent
        if let w = l.width {
            let fixed = maxIndent + l.idWidth + 2 + (l.dateWidth > 0 ? 2 + l.dateWidth : 0)
            let budget = w - fixed
            // The marks get their columns while titles keep at least minimumTitleWidth.
            let withMarks = budget - (maxMarks > 0 ? 2 + maxMarks : 0)
            l.titleWidth = min(maxTitle, max(withMarks, min(budget, TaskText.minimumTitleWidth), 1))
        }
        return l
    }

    /// List rows in a layout (by default one of their own), each starting with `indent` spaces.
    /// At the detailed row level (or with `scores`, for `explain plan`) a row also shows the
    /// High and Critical priority words and its urgency score (R-PLAN-4).
    public func rows(_ tasks: [Task], scores: [Double]? = nil, layout given: RowLayout? = nil, indent: Int = 0) -> [String] {
        let l = given ?? layout([(tasks, indent)], scores: scores != nil, width: nil, color: false)
        let pad = String(repeating: " ", count: indent)
        return tasks.enumerated().map { k, t in
            let id = String(t.id)
            let head = pad + String(repeating: " ", count: max(0, l.idWidth - id.count)) + id + "  "
            let headWidth = indent + max(l.idWidth, id.count) + 2
            let title = escape(t.title)
            let titleWidth = l.titleWidth + max(0, l.indent - indent)
            let fullWidth = DisplayWidth.of(title)
            var cutTitle = fullWidth > titleWidth ? DisplayWidth.truncated(title, to: titleWidth) : title
            let cutWidth = fullWidth > titleWidth ? DisplayWidth.of(cutTitle) : fullWidth
            let date = dateText(t)
            var cols: [(text: String, color: String?)] = []
            cols.append((date, dateColor(t)))
            cols += marks(t, score: scores.flatMap { k < $0.count ? $0[k] : nil })
            while let last = cols.last, last.text.isEmpty { cols.removeLast() }
            let tc = titleColor(t)
            guard !cols.isEmpty else {
                if let w = l.width { cutTitle = DisplayWidth.truncated(cutTitle, to: max(0, w - headWidth)) }
                return head + (l.color ? RowColor.wrap(cutTitle, tc) : cutTitle)
            }
            // The parts after the title, each padded to its column, then cut to the width.
            var used = headWidth + titleWidth
            var line = head + (l.color ? RowColor.wrap(cutTitle, tc) : cutTitle)
            line += String(repeating: " ", count: max(0, titleWidth - cutWidth))
            for (k, c) in cols.enumerated() {
                let textWidth = DisplayWidth.of(c.text)
                let colWidth = k == 0 ? max(l.dateWidth, textWidth) : textWidth
                let last = k == cols.count - 1
                var text = c.text
                if let w = l.width, used + 2 + textWidth > w {
                    // What is left of the width: the column cut to it, and nothing after.
                    let room = w - used - 2
                    guard room > 0 else { break }
                    text = DisplayWidth.truncated(text, to: room)
                    line += "  " + (l.color ? RowColor.wrap(text, c.color) : text)
                    break
                }
                line += "  " + (l.color ? RowColor.wrap(text, c.color) : text)
                if !last { line += String(repeating: " ", count: max(0, colWidth - textWidth)) }
                used += 2 + colWidth
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// An overdue date is red, today's yellow (R-VIEW-10).
    func dateColor(_ t: Task) -> String? {
        guard let d = t.due, t.isOpen else { return nil }
        let diff = today.days(until: d.date)
        return diff < 0 ? RowColor.red : diff == 0 ? RowColor.yellow : nil
    }

    /// A High task's title is bold, a Critical one's bold magenta (R-VIEW-10).
    func titleColor(_ t: Task) -> String? {
        switch t.priority {
        case .critical: return RowColor.boldMagenta
        case .high: return RowColor.bold
        default: return nil
        }
    }
}
