/// A metric's figures over a variant's matured customers, as a test of two samples reads them:
/// how many customers, the sum of their values and the sum of the squares of their values.
/// For a yes-or-no metric each customer's value is 1 or 0, so `sum` is how many said yes and
/// `sumOfSquares` equals `sum`.
public struct ExperimentMetricSums: Hashable, Sendable, Codable {
    /// How many customers the figures are over.
    public var count: Int
    /// The sum of the customers' values.
    public var sum: Double
    /// The sum of the squares of the customers' values.
    public var sumOfSquares: Double

    /// Describes a metric's figures.
    public init(count: Int, sum: Double, sumOfSquares: Double) {
        self.count = count
        self.sum = sum
        self.sumOfSquares = sumOfSquares
    }

    /// The figures of a yes-or-no metric: `successes` of `count` customers had 1, the rest 0.
    public init(count: Int, successes: Int) {
        self.init(count: count, sum: Double(successes), sumOfSquares: Double(successes))
    }
}
