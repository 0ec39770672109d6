extension Duration {
    /// The duration in seconds, as a `Double` (what `Thread.sleep`, `Date` and rates take).
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded down (what `poll` and timeouts in C take).
    package var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
