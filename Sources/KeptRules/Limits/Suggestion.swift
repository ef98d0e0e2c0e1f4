// Did-you-mean: the nearest candidate by edit distance (Damerau: a swap of two letters counts
// as one edit, the usual typo), offered only when it is close enough to be a likely fix. Only
// the candidate: the catalog words the help and its fix-it (Catalog.didYouMean).

/// Finds near names for misspelled words.
public enum Suggestion {
    /// The edit distance between two strings, counted on bytes, case-insensitive for ASCII.
    public static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased().utf8)
        let y = Array(b.lowercased().utf8)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var prev2 = [Int](repeating: 0, count: y.count + 1)
        var prev = Array(0...y.count)
        var cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            cur[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    v = min(v, prev2[j - 2] + 1)
                }
                cur[j] = v
            }
            prev2 = prev
            prev = cur
        }
        return prev[y.count]
    }

    /// The closest candidate within a distance that grows with the word's length (1 edit for
    /// short words, up to 3 for long ones), or nil; ties go to the earlier candidate.
    public static func nearest(_ word: String, in candidates: some Sequence<String>) -> String? {
        let limit = word.utf8.count <= 3 ? 1 : (word.utf8.count <= 6 ? 2 : 3)
        var best: (String, Int)? = nil
        for c in candidates {
            let d = distance(word, c)
            if d == 0 { return c }
            if d <= limit, d < (best?.1 ?? Int.max) {
                best = (c, d)
            }
        }
        if let best, best.0.lowercased() != word.lowercased() { return best.0 }
        return nil
    }
}
