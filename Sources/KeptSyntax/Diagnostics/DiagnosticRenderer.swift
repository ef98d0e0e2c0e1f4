// Draws diagnostics in two forms: the rich one (source line, caret or underline, help) for a
// terminal, and the one-line `file:line:col: error[E…]: …` form for logs and pipes. A
// did-you-mean's help line is its fix-it's title (Diagnostic.init): the REPL shows the fix.

import KeptRules

/// Turns diagnostics into text.
public struct DiagnosticRenderer: Sendable {
    public enum Style: String, Sendable {
        case rich, short
    }

    public var style: Style
    public var color: Bool

    public init(style: Style, color: Bool = false) {
        self.style = style
        self.color = color
    }

    /// The text of one diagnostic, ending without a line break.
    public func render(_ d: Diagnostic) -> String {
        style == .rich ? rich(d) : short(d)
    }

    private func paint(_ s: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }

    private func head(_ d: Diagnostic) -> String {
        let sev = paint("\(d.severity.rawValue)[\(d.code)]", d.severity == .error ? "1;31" : "1;33")
        return "\(sev): \(d.message)"
    }

    /// `file:line:col: error[CODE]: message; help: …`
    public func short(_ d: Diagnostic) -> String {
        var s = ""
        if let file = d.file, let loc = d.location {
            s = "\(file.name):\(loc.line):\(loc.column): "
        }
        s += head(d)
        if let help = d.help { s += "; help: \(help)" }
        return s
    }

    /// The rich form, as a terminal user reads it.
    public func rich(_ d: Diagnostic) -> String {
        var out = [head(d)]
        guard let file = d.file, let range = d.range else {
            for n in d.notes { out.append("  = note: \(n)") }
            if let h = d.help { out.append("  = help: \(h)") }
            return out.joined(separator: "\n")
        }
        let start = file.lineColumn(of: range.start)
        let lines = ([range] + d.secondary.map(\.range)).map { file.line(of: $0.start) }
        // The gutter is one column wider than the largest line number, as rustc draws it.
        let width = String(lines.max() ?? start.line).count + 1
        let pad = String(repeating: " ", count: width)
        let bar = paint("|", "1;34")
        out.append("\(pad)\(paint("-->", "1;34")) \(file.name):\(start.line):\(start.column)")
        out.append("\(pad) \(bar)")
        var drawn: [(line: Int, marks: [(SourceRange, String?, Bool)])] = []
        func add(_ r: SourceRange, _ label: String?, primary: Bool) {
            let l = file.line(of: r.start)
            if let k = drawn.firstIndex(where: { $0.line == l }) {
                drawn[k].marks.append((r, label, primary))
            } else {
                drawn.append((l, [(r, label, primary)]))
            }
        }
        add(range, d.label, primary: true)
        for s in d.secondary { add(s.range, s.text, primary: false) }
        drawn.sort { $0.line < $1.line }
        for entry in drawn {
            let (text, shift) = window(file.lineText(entry.line), around: file.lineColumn(of: entry.marks[0].0.start).column)
            let num = String(entry.line)
            out.append("\(String(repeating: " ", count: width - num.count))\(num) \(bar) \(text)")
            for (r, label, primary) in entry.marks {
                let col = file.lineColumn(of: r.start).column - 1 - shift
                let lineEnd = file.lineEnd(entry.line)
                let endOff = min(r.end, lineEnd)
                let len = max(1, SourceFile.scalarCount(file.bytes, from: r.start, to: endOff))
                let mark = String(repeating: primary ? "^" : "-", count: min(len, 80))
                var line = "\(pad) \(bar) \(String(repeating: " ", count: max(0, col)))\(paint(mark, primary ? "1;31" : "1;34"))"
                if let label { line += " \(label)" }
                out.append(line)
            }
        }
        if !d.notes.isEmpty || d.help != nil { out.append("\(pad) \(bar)") }
        for n in d.notes { out.append("\(pad) = note: \(n)") }
        if let h = d.help { out.append("\(pad) = \(paint("help", "1;36")): \(h)") }
        return out.joined(separator: "\n")
    }

    /// A long line cut to a window around a column, so a caret into a one-line store of
    /// megabytes still fits a terminal; returns the text and how many columns were cut. A
    /// control character shows as its one-column picture (DisplayText), never raw.
    private func window(_ line: String, around column: Int) -> (String, Int) {
        let scalars = Array(line.unicodeScalars.map { $0 == "\t" ? " " : DisplayText.picture($0) })
        guard scalars.count > 100 else { return (String(String.UnicodeScalarView(scalars)), 0) }
        let from = max(0, column - 41)
        let to = min(scalars.count, from + 100)
        var s = String(String.UnicodeScalarView(scalars[from..<to]))
        var shift = from
        if from > 0 {
            s = "..." + s
            shift -= 3
        }
        if to < scalars.count { s += "..." }
        return (s, shift)
    }
}
