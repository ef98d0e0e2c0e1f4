// `kept test --update`: a failing block is rewritten so it matches what the command printed,
// keeping what still matches as it was written. Each expected item is paired with the actual
// lines by an alignment that keeps the most items (a `(re)` or `(glob)` line, `...`, a JSON
// value in any layout); only the items that match nothing are dropped and only the lines no
// item matches are written, escaped as `.record` writes them (Recorder.expectedLine), so the
// next run reads each back as itself. The failing diff is here too (TestDiff).

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

enum TranscriptUpdater {
    /// The most cells of the alignment table before the middle of a block is written whole.
    static let alignmentCells = 4_000_000

    /// An actual line as a block writes it: an error as `! CODE message`, output escaped.
    static func written(_ actual: ActualOutput, _ j: Int) -> String {
        let l = actual.lines[j]
        if actual.isError[j] { return l.isEmpty ? "<BLANKLINE>" : l }
        return Recorder.expectedLine(l)
    }

    /// The block to write for expected lines that did not match the actual output.
    static func block(_ expected: ExpectedOutput, _ actual: ActualOutput, unordered: Bool) -> [String] {
        let kept = unordered ? unorderedBlock(expected, actual) : orderedBlock(expected, actual)
        // Whatever the alignment kept must match as a whole; else the output is written plainly.
        if ExpectedOutput(kept, json: expected.hasJSON).matches(actual.lines, unordered: unordered) { return kept }
        return actual.lines.indices.map { written(actual, $0) }
    }

    /// The items that took a line stay where they were; the lines none took follow them.
    static func unorderedBlock(_ expected: ExpectedOutput, _ actual: ActualOutput) -> [String] {
        let m = expected.unorderedMatching(actual.lines, expected.values(actual.lines))
        var out: [String] = []
        for i in expected.items.indices where expected.items[i].isAnyLines || m.pairs[i] != nil {
            out += expected.spans[i].map { expected.raw[$0] }
        }
        if !expected.items.contains(where: \.isAnyLines) {
            out += m.unmatched.map { written(actual, $0) }
        }
        return out
    }

    /// In order: the common start and end are kept as they are; the middle is aligned by the
    /// table `best[i][j]`, the most items of `items[i...]` kept against `lines[j...]`.
    static func orderedBlock(_ expected: ExpectedOutput, _ actual: ActualOutput) -> [String] {
        let items = expected.items
        let values = expected.values(actual.lines)
        func match(_ i: Int, _ j: Int) -> Bool { !items[i].isAnyLines && items[i].matches(actual.lines[j], values[j]) }
        func raw(_ i: Int) -> [String] { expected.spans[i].map { expected.raw[$0] } }
        var head = 0
        while head < items.count, head < actual.lines.count, match(head, head) { head += 1 }
        var tail = 0
        while tail < items.count - head, tail < actual.lines.count - head,
              match(items.count - 1 - tail, actual.lines.count - 1 - tail) { tail += 1 }
        var out = (0..<head).flatMap(raw)
        let n = items.count - head - tail
        let m = actual.lines.count - head - tail
        if m == 0 {
            // Nothing left to match: only `...` still fits.
            out += (head..<(head + n)).filter { items[$0].isAnyLines }.flatMap(raw)
        } else if n * m > alignmentCells || n == 0 {
            // Too large to align (or nothing to align): the middle is the output, except that a
            // `...` alone in it still matches whatever is there.
            if n == 1, items[head].isAnyLines {
                out += raw(head)
            } else {
                out += (head..<(head + m)).map { written(actual, $0) }
            }
        } else {
            let w = m + 1
            var best = [Int32](repeating: 0, count: (n + 1) * w)
            var suffixBest = [Int32](repeating: 0, count: w)
            for i in stride(from: n - 1, through: 0, by: -1) {
                // suffixBest[j]: the best of row i + 1 from column j on (what `...` can reach).
                suffixBest[m] = best[(i + 1) * w + m]
                for j in stride(from: m - 1, through: 0, by: -1) { suffixBest[j] = max(best[(i + 1) * w + j], suffixBest[j + 1]) }
                for j in stride(from: m, through: 0, by: -1) {
                    var v = best[(i + 1) * w + j]
                    if j < m { v = max(v, best[i * w + j + 1]) }
                    if items[head + i].isAnyLines {
                        v = max(v, 1 + suffixBest[j])
                    } else if j < m, match(head + i, head + j) {
                        v = max(v, 1 + best[(i + 1) * w + j + 1])
                    }
                    best[i * w + j] = v
                }
            }
            var i = 0
            var j = 0
            while i < n || j < m {
                let here = best[i * w + j]
                if i == n {
                    out.append(written(actual, head + j)); j += 1
                } else if items[head + i].isAnyLines {
                    // `...` always stays (keeping it is never worse than dropping it or writing a
                    // line before it), taking every line it can before the rest aligns best: a
                    // line it absorbs is not written out.
                    var k = m
                    while k > j, best[(i + 1) * w + k] != here - 1 { k -= 1 }
                    out += raw(head + i)
                    i += 1
                    j = k
                } else if j < m, match(head + i, head + j), here == 1 + best[(i + 1) * w + j + 1] {
                    out += raw(head + i); i += 1; j += 1
                } else if j < m, here == best[(i + 1) * w + j + 1] {
                    // A line that differs takes the place of the item it replaces, as a diff's
                    // change does (rather than the item dropped and the line written later).
                    out.append(written(actual, head + j)); i += 1; j += 1
                } else if here == best[(i + 1) * w + j] {
                    i += 1
                } else {
                    out.append(written(actual, head + j)); j += 1
                }
            }
        }
        out += ((items.count - tail)..<items.count).flatMap(raw)
        return out
    }

    /// Writes the new blocks over the old ones; false when the file could not be written.
    static func rewrite(path: String, bytes: [UInt8], updates: [BlockUpdate]) -> Result<Void, FileError> {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let endsWithNewline = text.hasSuffix("\n")
        if endsWithNewline { lines.removeLast() }
        // From the bottom up, so earlier line numbers stay valid.
        for u in updates.sorted(by: { $0.lines.lowerBound > $1.lines.lowerBound }) {
            let from = u.lines.lowerBound - 1
            let to = u.lines.upperBound - 1
            guard from >= 0, from <= lines.count, to <= lines.count else { continue }
            lines.replaceSubrange(from..<to, with: u.replacement)
        }
        var out = lines.joined(separator: "\n")
        if endsWithNewline { out += "\n" }
        return Files.writeAtomically(Array(out.utf8), to: path, newMode: 0o644)
    }
}

/// What a failing block shows: a unified diff, or for `@unordered` the items no line matched
/// and the lines no item took.
enum TestDiff {
    static func lines(_ expected: ExpectedOutput, _ actual: [String], unordered: Bool) -> [String] {
        let values = expected.values(actual)
        if unordered {
            let m = expected.unorderedMatching(actual, values)
            let missing = expected.items.indices.filter { !expected.items[$0].isAnyLines && m.pairs[$0] == nil }
            let extra = expected.items.contains(where: \.isAnyLines) ? [] : m.unmatched
            return ["--- expected (in any order)", "+++ actual"] + missing.map { "-" + expected.display($0) } + extra.map { "+" + actual[$0] }
        }
        return UnifiedDiff.lines(expected: expected.items.indices.map(expected.display), actual: actual) { i, j in
            expected.same(i, actual[j], values[j])
        }
    }
}
