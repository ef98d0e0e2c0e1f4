// A unified diff of expected against actual lines, as a failing transcript shows it. Lines are
// paired by a longest common subsequence in which a pattern line equals the lines it matches.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// Builds unified diffs.
enum UnifiedDiff {
    /// The diff's lines: `--- expected`, `+++ actual`, then hunks with three lines of context.
    static func lines(expected: [String], actual: [String], same: (Int, Int) -> Bool) -> [String] {
        let n = expected.count
        let m = actual.count
        // lcs[i][j]: the longest common run of expected[i...] and actual[j...].
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        if n > 0, m > 0 {
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    lcs[i][j] = same(i, j) ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
                }
            }
        }
        enum Op { case keep(Int, Int), del(Int), add(Int) }
        var ops: [Op] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, same(i, j) {
                ops.append(.keep(i, j)); i += 1; j += 1
            } else if i < n, j == m || lcs[i + 1][j] >= lcs[i][j + 1] {
                ops.append(.del(i)); i += 1
            } else {
                ops.append(.add(j)); j += 1
            }
        }
        var out = ["--- expected", "+++ actual"]
        let context = 3
        var k = 0
        while k < ops.count {
            guard let firstChange = ops[k...].firstIndex(where: { if case .keep = $0 { return false }; return true }) else { break }
            let start = max(k, firstChange - context)
            var end = firstChange
            var lastChange = firstChange
            while end < ops.count {
                if case .keep = ops[end] {
                    if end - lastChange > 2 * context { break }
                } else {
                    lastChange = end
                }
                end += 1
            }
            let stop = min(ops.count, lastChange + context + 1)
            var body: [String] = []
            var ec = 0, ac = 0
            // Where the hunk starts on each side: the positions before its first op.
            var e0 = 0, a0 = 0
            for op in ops[..<start] {
                switch op {
                case .keep: e0 += 1; a0 += 1
                case .del: e0 += 1
                case .add: a0 += 1
                }
            }
            for op in ops[start..<stop] {
                switch op {
                case .keep(_, let y):
                    ec += 1; ac += 1
                    body.append(" " + actual[y])
                case .del(let x):
                    ec += 1
                    body.append("-" + expected[x])
                case .add(let y):
                    ac += 1
                    body.append("+" + actual[y])
                }
            }
            // An empty side is numbered by the line before it, as diff -u does.
            out.append("@@ -\(ec == 0 ? e0 : e0 + 1),\(ec) +\(ac == 0 ? a0 : a0 + 1),\(ac) @@")
            out += body
            k = stop
        }
        return out
    }
}
