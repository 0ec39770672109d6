extension Duration {
    /// The duration in seconds, as a `Double` (what `Thread.sleep`, `Date` and rates take).
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
