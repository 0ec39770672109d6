/// The known name a mistyped one most likely meant.
enum NearestName {
    /// The name of `candidates` closest to `typed`, if it is close enough to be a typo: at
    /// most a third of its letters (and at least two) edited, or `typed` a prefix of it.
    static func suggestion(for typed: String, among candidates: [String]) -> String? {
        let ranked = candidates.map { (name: $0, distance: distance(typed, $0)) }
            .filter { $0.distance <= max(2, $0.name.count / 3) || ($0.name.hasPrefix(typed) && typed.count >= 3) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return ranked.first?.name
    }

    /// The Levenshtein distance between `first` and `second`: the insertions, deletions and
    /// substitutions of characters that turn one into the other.
    static func distance(_ first: String, _ second: String) -> Int {
        let first = Array(first), second = Array(second)
        var previous = Array(0...second.count)
        for (row, character) in first.enumerated() {
            var current = [row + 1]
            for (column, other) in second.enumerated() {
                current.append(min(previous[column + 1] + 1, current[column] + 1,
                                   previous[column] + (character == other ? 0 : 1)))
            }
            previous = current
        }
        return previous[second.count]
    }
}
