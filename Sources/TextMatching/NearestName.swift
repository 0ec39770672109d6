/// The known name a mistyped one most likely meant, by edit distance: how "did you mean"
/// hints are chosen.
public enum NearestName {
    /// The candidate closest to `name`, when it is close enough to be a typo of it: at most
    /// one edit for names of up to four characters, two for longer ones, letter case ignored.
    /// Ties go to the candidate that comes first in `candidates`. With `allowingPrefixes`, a
    /// name of three characters or more that begins no closer candidate's name suggests the
    /// shortest candidate it begins (`--cov` → `--coverage`). Nil when none is close.
    public static func nearest(to name: String, in candidates: some Sequence<String>, allowingPrefixes: Bool = false) -> String? {
        if let close = nearestByEdits(to: name, in: candidates) { return close }
        guard allowingPrefixes, name.count >= 3 else { return nil }
        return candidates.filter { $0.lowercased().hasPrefix(name.lowercased()) }.min { ($0.count, $0) < ($1.count, $1) }
    }

    private static func nearestByEdits(to name: String, in candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased())
        let allowed = typed.count <= 4 ? 1 : 2
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let known = Array(candidate.lowercased())
            guard abs(known.count - typed.count) <= allowed else { continue }
            let distance = editDistance(typed, known)
            if distance <= allowed, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The edit distance between `first` and `second` (Levenshtein's, with transpositions):
    /// how many characters must be inserted, deleted, replaced or swapped with their
    /// neighbour to turn one into the other.
    public static func editDistance(_ first: String, _ second: String) -> Int {
        editDistance(Array(first), Array(second))
    }

    /// The edit distance of two character lists, three rows of the table at a time.
    private static func editDistance(_ first: [Character], _ second: [Character]) -> Int {
        guard !first.isEmpty else { return second.count }
        guard !second.isEmpty else { return first.count }
        var beforePrevious = [Int](repeating: 0, count: second.count + 1)
        var previous = Array(0...second.count)
        var current = [Int](repeating: 0, count: second.count + 1)
        for row in 1...first.count {
            current[0] = row
            for column in 1...second.count {
                let same = first[row - 1] == second[column - 1]
                current[column] = min(previous[column - 1] + (same ? 0 : 1), previous[column] + 1, current[column - 1] + 1)
                if row > 1, column > 1, first[row - 1] == second[column - 2], first[row - 2] == second[column - 1] {
                    current[column] = min(current[column], beforePrevious[column - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[second.count]
    }
}
