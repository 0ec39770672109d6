extension StoreDuration {
    /// Parses a duration as people type it at a prompt: ISO 8601 (`P1M`, `PT2H`, `P1DT12H`) or
    /// the same without its `P` and `T` (`1M`, `3D`, `2W`, `1Y`, `12H`, `1D12H`), in any letter
    /// case; `nil` when `text` is neither. Without the `P`, `M` means months, and hours and
    /// seconds follow the date part; minutes need the ISO form (`PT30M`).
    public init?(shorthand text: String) {
        let upper = text.uppercased()
        if upper.hasPrefix("P") {
            self.init(iso8601: upper)
            return
        }
        let dateEnd = upper.lastIndex { "YMWD".contains($0) }.map(upper.index(after:)) ?? upper.startIndex
        let datePart = upper[..<dateEnd], timePart = upper[dateEnd...]
        self.init(iso8601: "P" + datePart + (timePart.isEmpty ? "" : "T" + timePart))
    }
}
