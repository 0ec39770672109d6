import Foundation
import StoreStatistics
import Testing

/// What the tests answer where gbstats answers its uninformative default: no figures and a typed
/// reason, never a trap, an infinity or a NaN in the JSON; and the summaries' own arithmetic.
@Suite struct ComparisonEdgeCaseTests {
    static let revenue = SampleSummary(count: 100, sum: 250, sumOfSquares: 1500)

    @Test("a summary's mean and unbiased variance, and a proportion's p(1 − p)")
    func summaries() {
        let values = [1.0, 4, 4, 7]
        let summary = SampleSummary(values: values)
        #expect(summary == SampleSummary(count: 4, sum: 16, sumOfSquares: 82))
        #expect(summary.mean == 4)
        #expect(summary.variance == 6)
        #expect(SampleSummary(count: 1, sum: 3, sumOfSquares: 9).variance == 0)
        #expect(SampleSummary(count: 0, sum: 0, sumOfSquares: 0).mean == 0)
        #expect(ProportionSummary(count: 10, successes: 2).variance == 0.2 * 0.8)
    }

    @Test("no control customers or a control mean of 0 gives no estimate, for absolute differences too, as gbstats")
    func controlMeanZero() {
        for difference in DifferenceKind.allCases {
            let empty = FixedHorizonTest.compare(control: SampleSummary(count: 0, sum: 0, sumOfSquares: 0), treatment: Self.revenue,
                                                 difference: difference)
            #expect(empty.undefinedReason == .controlMeanZero && empty.estimate == nil && empty.pValue == nil)
            let zero = SequentialTest.compare(control: ProportionSummary(count: 400, successes: 0),
                                              treatment: ProportionSummary(count: 400, successes: 9), difference: difference)
            #expect(zero.undefinedReason == .controlMeanZero && zero.lower == nil && zero.upper == nil)
            #expect(zero.treatmentMean == 9.0 / 400)
        }
    }

    @Test("one customer in a variant, or a variant whose every customer is alike, gives no estimate")
    func zeroVariance() {
        let single = FixedHorizonTest.compare(control: Self.revenue, treatment: SampleSummary(count: 1, sum: 3, sumOfSquares: 9),
                                              difference: .absolute)
        #expect(single.undefinedReason == .zeroOrNegativeVariance && single.degreesOfFreedom == nil)
        let everyone = SequentialTest.compare(control: ProportionSummary(count: 50, successes: 5),
                                              treatment: ProportionSummary(count: 50, successes: 50), difference: .relative)
        #expect(everyone.undefinedReason == .zeroOrNegativeVariance && everyone.estimate == nil)
    }

    @Test("a proportion of one customer counted by half leaves Welch's degrees of freedom undefined: no figures, quickly")
    func notFinite() {
        let result = FixedHorizonTest.compare(control: ProportionSummary(count: 1, successes: 0.5),
                                              treatment: ProportionSummary(count: 40, successes: 10), difference: .absolute)
        #expect(result.undefinedReason == .notFinite && result.estimate == nil)
        #expect(StudentT.survival(2, degreesOfFreedom: .nan).isNaN && StudentT.quantile(0.9, degreesOfFreedom: 0).isNaN)
        #expect(ChiSquare.survival(2, degreesOfFreedom: 0).isNaN)
    }

    @Test("JSON of an undefined comparison leaves the figures out and names the reason; a defined one has them all")
    func json() throws {
        let undefined = FixedHorizonTest.compare(control: SampleSummary(count: 0, sum: 0, sumOfSquares: 0), treatment: Self.revenue,
                                                 difference: .relative)
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(undefined)) as? [String: Any])
        #expect(Set(object.keys) == ["controlMean", "treatmentMean", "difference", "alpha", "undefinedReason"])
        #expect(object["undefinedReason"] as? String == "controlMeanZero")
        let defined = FixedHorizonTest.compare(control: Self.revenue, treatment: SampleSummary(count: 120, sum: 330, sumOfSquares: 2000),
                                               difference: .relative)
        let decoded = try JSONDecoder().decode(MetricComparison.self, from: JSONEncoder().encode(defined))
        #expect(decoded == defined)
        #expect(decoded.estimate != nil && decoded.lower != nil && decoded.upper != nil && decoded.pValue != nil && decoded.degreesOfFreedom != nil)
    }

    @Test("the sequential interval is wider than the fixed-horizon one, and both centre on the estimate")
    func sequentialIsWider() throws {
        let treatment = SampleSummary(count: 120, sum: 330, sumOfSquares: 2000)
        let fixed = FixedHorizonTest.compare(control: Self.revenue, treatment: treatment, difference: .absolute)
        let sequential = SequentialTest.compare(control: Self.revenue, treatment: treatment, difference: .absolute)
        let estimate = try #require(fixed.estimate)
        #expect(estimate == treatment.mean - Self.revenue.mean && sequential.estimate == estimate)
        #expect(try #require(sequential.lower) < #require(fixed.lower))
        #expect(try #require(sequential.upper) > #require(fixed.upper))
        #expect(sequential.degreesOfFreedom == nil)
    }

    @Test("SRM: no customers or one variant is 1, a variant weighted 0 adds nothing")
    func mismatchEdges() {
        #expect(SampleRatioMismatch.pValue(counts: [0, 0, 0], weights: [1, 1, 1]) == 1)
        #expect(SampleRatioMismatch.pValue(counts: [500], weights: [1]) == 1)
        let withEmptyVariant = SampleRatioMismatch.pValue(counts: [300, 310, 0], weights: [1, 1, 0])
        let statistic = 2 * 25.0 / 305
        #expect(abs(withEmptyVariant - ChiSquare.survival(statistic, degreesOfFreedom: 2)) < 1e-15)
    }
}
