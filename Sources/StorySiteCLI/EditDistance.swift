/// The Levenshtein distance, for the "did you mean" suggestions of mistyped commands, options
/// and `storysite.json` keys.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The candidate closest to `word`, ignoring case, within two edits and fewer edits than
    /// `word` has characters (`-o` suggests nothing); the first of equals (`date` is 'dates',
    /// not 'site'). Nil when none is that close.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        let limit = min(2, word.count - 1)
        return candidates.map { ($0, between($0.lowercased(), lowered)) }.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }

    /// ` (did you mean 'strict'?)` for the closest candidate, or nothing.
    static func didYouMean(_ word: String, among candidates: [String], prefix: String = "") -> String {
        closest(to: word, among: candidates).map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
    }
}
