/// "Did you mean …?": the known word nearest to one a person typed. One
/// helper for every place that names what it expected (commands, kinds,
/// actions, options, rule words; chime's and chimed's), so that all of them
/// suggest alike.
public enum Suggestion {
    /// The edit distance between two words, case aside: insertions,
    /// deletions, substitutions and swaps of two neighbours, one each
    /// (`statsu` is one swap from `status`).
    public static func distance(_ left: String, _ right: String) -> Int {
        let a = Array(left.lowercased()), b = Array(right.lowercased())
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Three rows of the table: two back (for swaps), the last, this one.
        var beforeLast = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforeLast[j - 2] + 1)
                }
            }
            (beforeLast, last, row) = (last, row, beforeLast)
        }
        return last[b.count]
    }

    /// The candidate nearest to `word`, if one is near enough to be what
    /// was meant: within a third of the word's length in edits (one at
    /// least, three at most), else the only candidate the word begins.
    /// Ties go to the earlier candidate.
    public static func nearest(to word: String, among candidates: some Sequence<String>) -> String? {
        let limit = min(3, max(1, word.count / 3))
        var best: (candidate: String, distance: Int)?
        var prefixed: [String] = []
        for candidate in candidates where candidate.lowercased() != word.lowercased() {
            let distance = distance(word, candidate)
            if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
            if word.count >= 2, candidate.lowercased().hasPrefix(word.lowercased()) { prefixed.append(candidate) }
        }
        return best?.candidate ?? (prefixed.count == 1 ? prefixed[0] : nil)
    }

    /// `; did you mean 'events'?`, or nothing when no candidate is near.
    public static func hint(for word: String, among candidates: some Sequence<String>) -> String {
        nearest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
