import Foundation
@testable import StoreStatistics

/// The aggregates the parity tests send to gbstats: edge cases picked by hand, and a few hundred
/// generated from a seeded generator (conversion rates and revenue-like means, from two
/// customers a variant to ten million, absolute and relative, fixed and sequential).
enum ParityFixtures {
    typealias Aggregate = GbstatsJudge.Aggregate
    typealias ComparisonQuestion = GbstatsJudge.ComparisonQuestion

    /// Every question, hand-picked first.
    static let questions = GbstatsJudge.Questions(comparisons: handPickedComparisons + generatedComparisons(count: 400),
                                                  srm: mismatchChecks, functions: functionValues)

    /// The comparison `question` asks, made by StoreStatistics.
    static func swiftResult(_ question: ComparisonQuestion) -> MetricComparison {
        let difference = DifferenceKind(rawValue: question.difference)!
        if question.statistic == "proportion" {
            let control = ProportionSummary(count: question.control.n, successes: question.control.sum)
            let treatment = ProportionSummary(count: question.treatment.n, successes: question.treatment.sum)
            return compare(question, control, treatment, difference)
        }
        let control = SampleSummary(count: question.control.n, sum: question.control.sum, sumOfSquares: question.control.sum_squares)
        let treatment = SampleSummary(count: question.treatment.n, sum: question.treatment.sum,
                                      sumOfSquares: question.treatment.sum_squares)
        return compare(question, control, treatment, difference)
    }

    private static func compare<Summary: MetricSummary>(_ question: ComparisonQuestion, _ control: Summary, _ treatment: Summary,
                                                        _ difference: DifferenceKind) -> MetricComparison {
        question.test == "sequential"
            ? SequentialTest.compare(control: control, treatment: treatment, difference: difference, alpha: question.alpha,
                                     tuning: question.tuning)
            : FixedHorizonTest.compare(control: control, treatment: treatment, difference: difference, alpha: question.alpha)
    }

    /// Every combination of test and difference for one pair of aggregates.
    static func everyWay(_ statistic: String, _ control: Aggregate, _ treatment: Aggregate) -> [ComparisonQuestion] {
        ["fixed", "sequential"].flatMap { test in
            ["absolute", "relative"].map { difference in
                ComparisonQuestion(test: test, difference: difference, alpha: 0.05, tuning: 5000, statistic: statistic,
                                   control: control, treatment: treatment)
            }
        }
    }

    /// A revenue-like aggregate of `n` customers with mean `mean` and standard deviation `deviation`.
    static func moments(_ n: Int, mean: Double, deviation: Double) -> Aggregate {
        let count = Double(n)
        return Aggregate(n: n, sum: count * mean, sum_squares: (count - 1) * deviation * deviation + count * mean * mean)
    }

    static let handPickedComparisons: [ComparisonQuestion] = [
        // No control customers, one customer a variant, two customers a variant.
        everyWay("mean", Aggregate(n: 0, sum: 0, sum_squares: 0), moments(50, mean: 3, deviation: 2)),
        everyWay("mean", Aggregate(n: 1, sum: 4, sum_squares: 16), Aggregate(n: 1, sum: 5, sum_squares: 25)),
        everyWay("mean", Aggregate(n: 2, sum: 3, sum_squares: 5), Aggregate(n: 2, sum: 7, sum_squares: 25)),
        // Control's mean is 0, and a variant with no spread.
        everyWay("mean", Aggregate(n: 100, sum: 0, sum_squares: 40), moments(100, mean: 1, deviation: 1)),
        everyWay("mean", moments(100, mean: 2, deviation: 1), Aggregate(n: 100, sum: 300, sum_squares: 900)),
        everyWay("proportion", Aggregate(n: 500, sum: 0, sum_squares: 0), Aggregate(n: 500, sum: 10, sum_squares: 10)),
        everyWay("proportion", Aggregate(n: 500, sum: 20, sum_squares: 20), Aggregate(n: 500, sum: 500, sum_squares: 500)),
        // Identical variants, a negative control mean (refunds exceed sales), a difference of hundreds of standard errors.
        everyWay("proportion", Aggregate(n: 2000, sum: 200, sum_squares: 200), Aggregate(n: 2000, sum: 200, sum_squares: 200)),
        everyWay("mean", moments(300, mean: -1.5, deviation: 6), moments(280, mean: 0.5, deviation: 7)),
        everyWay("proportion", Aggregate(n: 1_000_000, sum: 100_000, sum_squares: 100_000),
                 Aggregate(n: 1_000_000, sum: 130_000, sum_squares: 130_000)),
        // Ten million customers a variant, very unequal variants, a rate of one in a million.
        everyWay("mean", moments(10_000_000, mean: 0.31, deviation: 4.2), moments(9_990_000, mean: 0.3101, deviation: 4.25)),
        everyWay("mean", moments(3, mean: 10, deviation: 0.01), moments(5000, mean: 10.2, deviation: 30)),
        everyWay("proportion", Aggregate(n: 3_000_000, sum: 3, sum_squares: 3), Aggregate(n: 3_000_000, sum: 9, sum_squares: 9)),
    ].flatMap { $0 } + [
        ComparisonQuestion(test: "fixed", difference: "relative", alpha: 0.01, tuning: 5000, statistic: "mean",
                           control: moments(40, mean: 19.99, deviation: 12), treatment: moments(45, mean: 24.99, deviation: 15)),
        ComparisonQuestion(test: "sequential", difference: "relative", alpha: 0.1, tuning: 100_000, statistic: "proportion",
                           control: Aggregate(n: 8000, sum: 640, sum_squares: 640), treatment: Aggregate(n: 8100, sum: 700, sum_squares: 700)),
        ComparisonQuestion(test: "sequential", difference: "absolute", alpha: 0.05, tuning: 10, statistic: "mean",
                           control: moments(20, mean: 5, deviation: 2), treatment: moments(20, mean: 6, deviation: 2)),
    ]

    /// `count` comparisons of random aggregates.
    static func generatedComparisons(count: Int) -> [ComparisonQuestion] {
        var random = SeededGenerator(seed: 0x5107E_57A7)
        let sizes = [2, 3, 10, 30, 100, 1000, 2000, 10_000, 100_000, 1_000_000, 10_000_000]
        return (0..<count).map { index in
            let controlCount = sizes.randomElement(using: &random)! + Int(random.next() % 7)
            let treatmentCount = max(2, Int(Double(controlCount) * (0.8 + 0.4 * random.uniform())))
            let statistic = index.isMultiple(of: 2) ? "proportion" : "mean"
            let control: Aggregate, treatment: Aggregate
            if statistic == "proportion" {
                let rate = exp(log(0.001) * random.uniform()) * 0.9
                let lift = 1 + 0.3 * (random.uniform() - 0.5)
                control = conversions(controlCount, rate: rate, random: &random)
                treatment = conversions(treatmentCount, rate: min(0.999, rate * lift), random: &random)
            } else {
                let mean = 0.5 + 40 * random.uniform()
                let deviation = mean * (0.5 + 5 * random.uniform())
                control = moments(controlCount, mean: mean, deviation: deviation)
                treatment = moments(treatmentCount, mean: mean * (1 + 0.2 * (random.uniform() - 0.5)),
                                    deviation: deviation * (0.7 + 0.6 * random.uniform()))
            }
            return ComparisonQuestion(test: random.bernoulli(0.5) ? "fixed" : "sequential",
                                      difference: random.bernoulli(0.5) ? "absolute" : "relative",
                                      alpha: [0.05, 0.05, 0.01, 0.1].randomElement(using: &random)!,
                                      tuning: [5000, 5000, 1000, 50_000].randomElement(using: &random)!,
                                      statistic: statistic, control: control, treatment: treatment)
        }
    }

    /// About `rate` of `n` customers converting (the count drawn near `n · rate`, never outside `0...n`).
    static func conversions(_ n: Int, rate: Double, random: inout SeededGenerator) -> Aggregate {
        let expected = Double(n) * rate
        let drawn = (expected + (expected * (1 - rate)).squareRoot() * random.normal()).rounded()
        let successes = min(Double(n), max(0, drawn))
        return Aggregate(n: n, sum: successes, sum_squares: successes)
    }

    /// Splits of two to four variants: honest ones, a 51/49 split, a zero weight, no customers at all.
    static let mismatchChecks: [GbstatsJudge.MismatchQuestion] = {
        var checks: [GbstatsJudge.MismatchQuestion] = [
            .init(counts: [51_000, 49_000], weights: [0.5, 0.5]),
            .init(counts: [5_010, 4_990], weights: [50, 50]),
            .init(counts: [0, 0, 0], weights: [1, 1, 1]),
            .init(counts: [300, 310, 0], weights: [1, 1, 0]),
            .init(counts: [1, 0], weights: [0.5, 0.5]),
            .init(counts: [2_000_000, 1_000_000, 1_000_000, 1_000_000], weights: [0.4, 0.2, 0.2, 0.2]),
            .init(counts: [2_000_000, 1_000_000, 1_000_000, 1_010_000], weights: [0.4, 0.2, 0.2, 0.2]),
        ]
        var random = SeededGenerator(seed: 0x5A_3713)
        for _ in 0..<60 {
            let variants = 2 + Int(random.next() % 3)
            let weights = (0..<variants).map { _ in Double(1 + random.next() % 100) }
            let total = [50, 1000, 100_000, 3_000_000].randomElement(using: &random)!
            let skew = random.bernoulli(0.5) ? 0.0 : 0.03
            let sumOfWeights = weights.reduce(0, +)
            let counts = weights.map { weight in
                Int((Double(total) * weight / sumOfWeights * (1 + skew * (random.uniform() - 0.5))).rounded())
            }
            checks.append(.init(counts: counts, weights: weights))
        }
        return checks
    }()

    /// The special functions across the ranges the tests use: 1 to 10⁷ degrees of freedom, tails down to 10⁻¹².
    static let functionValues: [GbstatsJudge.FunctionQuestion] = {
        let degrees: [Double] = [1, 1.5, 2, 2.7, 3, 5, 10, 29.3, 100, 1000, 12_345.6, 1e5, 1e6, 1e7]
        let points: [Double] = [0, 0.1, 0.5, 1, 1.96, 3, 5, 8, 12, 50, 1e3, 1e6]
        let tails: [Double] = [1e-12, 3e-10, 1e-7, 1e-5, 0.0005, 0.005, 0.025, 0.05, 0.1, 0.3, 0.45]
        var values: [GbstatsJudge.FunctionQuestion] = []
        for df in degrees {
            for x in points {
                values.append(.init(name: "t_sf", x: x, df: df))
                values.append(.init(name: "t_cdf", x: -x, df: df))
            }
            for p in tails {
                values.append(.init(name: "t_isf", p: p, df: df))
                values.append(.init(name: "t_ppf", p: p, df: df))
            }
        }
        for x in [-8.0, -5, -1.96, -0.3, 0, 0.7, 2.5, 6, 7.2] {
            values.append(.init(name: "norm_cdf", x: x))
            values.append(.init(name: "norm_sf", x: x))
        }
        for p in tails + [0.5, 0.8, 0.975, 0.999_999] {
            values.append(.init(name: "norm_ppf", p: p))
        }
        for df in [1.0, 2, 3, 4, 10] {
            for x in [0.0, 0.01, 0.5, 1, 3.84, 7.5, 15, 40, 60, 100] {
                values.append(.init(name: "chi2_sf", x: x, df: df))
            }
        }
        for (a, b, x) in [(0.5, 0.5, 0.3), (5e6, 0.5, 1 - 4e-7), (2.0, 3.0, 0.999), (100.0, 200.0, 0.2), (0.5, 1e4, 1e-3)] {
            values.append(.init(name: "betainc", x: x, a: a, b: b))
        }
        for (a, x) in [(0.5, 0.1), (1.5, 20), (10, 3), (3, 30)] {
            values.append(.init(name: "gammaincc", x: x, a: a))
        }
        return values
    }()

    /// The value `question` asks, computed by StoreStatistics.
    static func swiftValue(_ question: GbstatsJudge.FunctionQuestion) -> Double {
        let x = question.x ?? 0, p = question.p ?? 0, df = question.df ?? 1
        switch question.name {
        case "t_sf": return StudentT.survival(x, degreesOfFreedom: df)
        case "t_cdf": return StudentT.cdf(x, degreesOfFreedom: df)
        case "t_isf": return StudentT.upperQuantile(tailProbability: p, degreesOfFreedom: df)
        case "t_ppf": return StudentT.quantile(p, degreesOfFreedom: df)
        case "norm_cdf": return Normal.cdf(x)
        case "norm_sf": return Normal.survival(x)
        case "norm_ppf": return Normal.quantile(p)
        case "chi2_sf": return ChiSquare.survival(x, degreesOfFreedom: df)
        case "betainc": return IncompleteBeta.regularized(a: question.a!, b: question.b!, x: x, complement: 1 - x)
        case "gammaincc": return IncompleteGamma.upper(a: question.a!, x: x)
        default: return .nan
        }
    }
}
