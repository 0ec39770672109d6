import StoreStatistics
import Testing

/// The tests keep their promises on simulated experiments, drawn customer by customer from a seeded
/// generator (the same draws on every run): the fixed-horizon test's false positives are near its
/// 5 %, the sequential test's stay under 5 % however often it is read, intervals cover a known lift
/// about 95 % of the time, and a broken split is flagged.
@Suite struct HonestBySimulationTests {
    static let experiments = 1000
    static let customersPerVariant = 2000
    static let looks = 30

    /// One simulated A/A experiment's conversions, read `looks` times as customers arrive: the
    /// summaries of each variant at each look.
    static func accumulatedReads(rate: Double, treatmentRate: Double, random: inout SeededGenerator)
        -> [(control: ProportionSummary, treatment: ProportionSummary)] {
        var reads: [(control: ProportionSummary, treatment: ProportionSummary)] = []
        var control = ProportionSummary(count: 0, successes: 0), treatment = ProportionSummary(count: 0, successes: 0)
        for look in 1...looks {
            let arrived = customersPerVariant * look / looks
            while control.count < arrived {
                control.count += 1
                if random.bernoulli(rate) { control.successes += 1 }
                treatment.count += 1
                if random.bernoulli(treatmentRate) { treatment.successes += 1 }
            }
            reads.append((control, treatment))
        }
        return reads
    }

    @Test("over 1,000 A/A experiments of 2 × 2,000 customers the fixed-horizon test flags 5 % ± 1.4 %, and the sequential test read 30 times flags at most 5 %")
    func falsePositives() {
        var random = SeededGenerator(seed: 0xA_A000)
        var fixedAtTheEnd = 0, fixedAtAnyLook = 0, sequentialAtAnyLook = 0
        for _ in 0..<Self.experiments {
            let reads = Self.accumulatedReads(rate: 0.2, treatmentRate: 0.2, random: &random)
            let final = reads[reads.count - 1]
            if FixedHorizonTest.compare(control: final.control, treatment: final.treatment, difference: .absolute).isSignificant {
                fixedAtTheEnd += 1
            }
            if reads.contains(where: { FixedHorizonTest.compare(control: $0.control, treatment: $0.treatment, difference: .absolute).isSignificant }) {
                fixedAtAnyLook += 1
            }
            if reads.contains(where: { SequentialTest.compare(control: $0.control, treatment: $0.treatment, difference: .absolute).isSignificant }) {
                sequentialAtAnyLook += 1
            }
        }
        let share = { (flagged: Int) in Double(flagged) / Double(Self.experiments) }
        print("simulation: A/A fixed-horizon flags \(share(fixedAtTheEnd)) read once, \(share(fixedAtAnyLook)) read \(Self.looks) times; "
            + "sequential flags \(share(sequentialAtAnyLook)) read \(Self.looks) times")
        #expect(abs(share(fixedAtTheEnd) - 0.05) <= 0.014)
        #expect(share(sequentialAtAnyLook) <= 0.05)
        // Why the sequential test exists: the fixed-horizon test read at every look flags far more than its 5 %.
        #expect(share(fixedAtAnyLook) > 0.1)
    }

    @Test("intervals cover a known lift in 93.6–96.4 % of 1,000 experiments: absolute on revenue, relative on conversion; the sequential ones at every look at least as often")
    func coverage() {
        var random = SeededGenerator(seed: 0xC0_7E4A6E)
        var absoluteCovered = 0, relativeCovered = 0, sequentialCoveredAtEveryLook = 0
        let controlRevenue = 10.0, treatmentRevenue = 10.5, deviation = 6.0
        let controlRate = 0.2, treatmentRate = 0.22
        for _ in 0..<Self.experiments {
            let control = SampleSummary(values: (0..<Self.customersPerVariant).map { _ in controlRevenue + deviation * random.normal() })
            let treatment = SampleSummary(values: (0..<Self.customersPerVariant).map { _ in treatmentRevenue + deviation * random.normal() })
            let absolute = FixedHorizonTest.compare(control: control, treatment: treatment, difference: .absolute)
            if absolute.covers(treatmentRevenue - controlRevenue) { absoluteCovered += 1 }

            let reads = Self.accumulatedReads(rate: controlRate, treatmentRate: treatmentRate, random: &random)
            let final = reads[reads.count - 1]
            let relative = FixedHorizonTest.compare(control: final.control, treatment: final.treatment, difference: .relative)
            if relative.covers(treatmentRate / controlRate - 1) { relativeCovered += 1 }
            if reads.allSatisfy({ SequentialTest.compare(control: $0.control, treatment: $0.treatment, difference: .absolute)
                .covers(treatmentRate - controlRate) }) {
                sequentialCoveredAtEveryLook += 1
            }
        }
        let share = { (covered: Int) in Double(covered) / Double(Self.experiments) }
        print("simulation: fixed-horizon intervals cover the lift in \(share(absoluteCovered)) (absolute, revenue) and "
            + "\(share(relativeCovered)) (relative, conversion); sequential intervals at all \(Self.looks) looks in \(share(sequentialCoveredAtEveryLook))")
        #expect((0.936...0.964).contains(share(absoluteCovered)))
        #expect((0.936...0.964).contains(share(relativeCovered)))
        #expect(share(sequentialCoveredAtEveryLook) >= 0.95)
    }

    @Test("a 51/49 split of 100,000 customers declared 50/50 is flagged at p < 0.001, and 1,000 honest splits almost never are")
    func sampleRatioMismatch() {
        var random = SeededGenerator(seed: 0x5_4A1)
        var counts = [0, 0]
        for _ in 0..<100_000 { counts[random.bernoulli(0.51) ? 0 : 1] += 1 }
        let skewed = SampleRatioMismatch.pValue(counts: counts, weights: [50, 50])
        var honestFlags = 0
        for _ in 0..<Self.experiments {
            var honest = [0, 0, 0]
            for _ in 0..<3000 {
                let draw = random.uniform()
                honest[draw < 0.5 ? 0 : draw < 0.75 ? 1 : 2] += 1
            }
            if SampleRatioMismatch.pValue(counts: honest, weights: [2, 1, 1]) < 0.001 { honestFlags += 1 }
        }
        print("simulation: a 51/49 split of 100,000 (\(counts)) has SRM p = \(skewed); \(honestFlags) of \(Self.experiments) honest 50/25/25 splits of 3,000 flagged")
        #expect(skewed < 0.001)
        #expect(honestFlags <= 5)
    }
}

extension MetricComparison {
    /// Whether the interval contains `value`.
    func covers(_ value: Double) -> Bool {
        guard let lower, let upper else { return false }
        return lower <= value && value <= upper
    }
}
