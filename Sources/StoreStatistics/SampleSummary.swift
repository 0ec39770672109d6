/// What a test needs of one variant's metric: how many customers, their mean and the variance
/// the test uses for it. `SampleSummary` and `ProportionSummary` are the two kinds gbstats knows
/// as `SampleMeanStatistic` and `ProportionStatistic`.
public protocol MetricSummary: Sendable {
    /// The number of customers measured.
    var count: Int { get }
    /// The metric's mean per customer, 0 with no customers.
    var mean: Double { get }
    /// The variance of one customer's value, as gbstats computes it for this kind of summary.
    var variance: Double { get }
}

/// A metric of any value per customer (net revenue, say) summed over one variant's customers:
/// their count, the sum of their values and the sum of their squares.
public struct SampleSummary: MetricSummary, Hashable, Codable {
    /// The number of customers measured.
    public var count: Int
    /// The sum of their values.
    public var sum: Double
    /// The sum of the squares of their values.
    public var sumOfSquares: Double

    /// A summary of `count` customers whose values sum to `sum` and whose squares sum to `sumOfSquares`.
    public init(count: Int, sum: Double, sumOfSquares: Double) {
        self.count = count
        self.sum = sum
        self.sumOfSquares = sumOfSquares
    }

    /// The summary of `values`, one per customer.
    public init(values: some Sequence<Double>) {
        var count = 0, sum = 0.0, sumOfSquares = 0.0
        for value in values {
            count += 1
            sum += value
            sumOfSquares += value * value
        }
        self.init(count: count, sum: sum, sumOfSquares: sumOfSquares)
    }

    /// `sum / count`, or 0 with no customers.
    public var mean: Double {
        count == 0 ? 0 : sum / Double(count)
    }

    /// The unbiased sample variance `(Σx² − (Σx)²/n) / (n − 1)`, or 0 with fewer than two customers.
    public var variance: Double {
        guard count > 1 else { return 0 }
        let n = Double(count)
        return (sumOfSquares - sum * sum / n) / (n - 1)
    }
}

/// A yes-or-no metric (started a trial, paid, refunded) over one variant's customers: how many
/// were measured and how many said yes.
public struct ProportionSummary: MetricSummary, Hashable, Codable {
    /// The number of customers measured.
    public var count: Int
    /// How many of them the metric counts.
    public var successes: Double

    /// A summary of `successes` among `count` customers.
    public init(count: Int, successes: Double) {
        self.count = count
        self.successes = successes
    }

    /// The share of customers the metric counts, or 0 with no customers.
    public var mean: Double {
        count == 0 ? 0 : successes / Double(count)
    }

    /// `p (1 − p)`, the variance of one customer's 0-or-1 value (gbstats divides by `n`, not `n − 1`, here).
    public var variance: Double {
        mean * (1 - mean)
    }
}
