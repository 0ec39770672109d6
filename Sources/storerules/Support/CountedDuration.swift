/// A duration written as a whole positive count and a unit letter (`30s`, `15m`, `12h`, `3d`), as
/// `serve`'s `--reconcile-every` and `--events-give-up-after` take it.
enum CountedDuration {
    /// Seconds in each unit letter.
    static let secondsPerUnit: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// The duration `text` writes in one of `units`; nil when it is not a positive count of one
    /// of them, or too long to count in seconds.
    static func parse(_ text: String, units: Set<Character>) -> Duration? {
        guard let letter = text.last, units.contains(letter), let unit = secondsPerUnit[letter],
              let count = Int(text.dropLast()), count > 0
        else { return nil }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: unit)
        return overflow ? nil : .seconds(seconds)
    }
}
