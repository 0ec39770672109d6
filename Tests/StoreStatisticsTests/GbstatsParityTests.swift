import Foundation
import StoreStatistics
import TestPrerequisites
import Testing

/// StoreStatistics against gbstats 0.8.0 on the same aggregates, all asked in one run of the judge:
/// every estimate, interval end, standard error, degrees of freedom, p-value, SRM p-value and
/// special-function value agrees to 1e-6.
///
/// How two figures are compared: relative to the reference (`|ours − theirs| ≤ 1e-6 · |theirs|`),
/// except that the comparisons' p-values are allowed an absolute 1e-12 besides, because gbstats
/// forms the fixed-horizon one as `2 (1 − cdf)` in double precision, which rounds everything below
/// about 1e-16 away (to 0 for a difference of many standard errors, where ours is, say, 1e-270).
@Suite(.enabled(if: TestPrerequisite.runs(GbstatsJudge.isInstalled), "needs .venv-gbstats: run scripts/statistics/setup.sh"))
struct GbstatsParityTests {
    /// The judge's answers, asked once for every test of the suite.
    static let answers = Result { try GbstatsJudge.answer(ParityFixtures.questions) }

    static let tolerance = 1e-6

    /// The largest relative difference of `ours` from `theirs` at the scale `max(|theirs|, floor)`.
    static func difference(_ ours: Double?, _ theirs: Double?, floor: Double = 0) -> Double {
        guard let ours, let theirs else { return ours == nil && theirs == nil ? 0 : .infinity }
        if ours == theirs { return 0 }
        return abs(ours - theirs) / max(abs(theirs), floor, .leastNormalMagnitude)
    }

    @Test("fixed-horizon and sequential comparisons, absolute and relative, match gbstats' TwoSidedTTest and SequentialTwoSidedTTest")
    func comparisonsMatch() throws {
        let answers = try Self.answers.get()
        let questions = ParityFixtures.questions.comparisons
        try #require(answers.comparisons.count == questions.count)
        var worst = 0.0, defined = 0
        for (question, theirs) in zip(questions, answers.comparisons) {
            let ours = ParityFixtures.swiftResult(question)
            let label = "\(question)"
            guard let message = theirs.error_message else {
                defined += 1
                let differences = [
                    ("estimate", Self.difference(ours.estimate, theirs.expected)),
                    ("lower", Self.difference(ours.lower, theirs.ci[0])),
                    ("upper", Self.difference(ours.upper, theirs.ci[1])),
                    ("standard error", Self.difference(ours.standardError, theirs.stddev)),
                    ("p-value", Self.difference(ours.pValue, theirs.p_value, floor: 1e-12 / Self.tolerance)),
                    ("degrees of freedom", Self.difference(ours.degreesOfFreedom, theirs.dof)),
                ]
                for (name, difference) in differences {
                    worst = max(worst, difference)
                    #expect(difference <= Self.tolerance, "\(name) differs by \(difference): ours \(ours), gbstats \(theirs), for \(label)")
                }
                continue
            }
            let expectedReason: ComparisonUndefinedReason? = switch message {
            case "ZERO_NEGATIVE_BASELINE_VARIATION": .controlMeanZero
            case "ZERO_NEGATIVE_VARIANCE": .zeroOrNegativeVariance
            default: nil
            }
            #expect(ours.undefinedReason == expectedReason && ours.estimate == nil && ours.pValue == nil,
                    "gbstats answers \(message), we \(ours), for \(label)")
        }
        print("gbstats parity: \(questions.count) comparisons (\(defined) defined), worst relative difference \(worst)")
        #expect(defined > 350)
    }

    @Test("sample-ratio-mismatch p-values of two to four variants match gbstats' check_srm")
    func mismatchMatches() throws {
        let answers = try Self.answers.get()
        let questions = ParityFixtures.questions.srm
        try #require(answers.srm.count == questions.count)
        var worst = 0.0
        for (question, theirs) in zip(questions, answers.srm) {
            let ours = SampleRatioMismatch.pValue(counts: question.counts, weights: question.weights)
            let difference = Self.difference(ours, theirs)
            worst = max(worst, difference)
            #expect(difference <= Self.tolerance, "ours \(ours), gbstats \(String(describing: theirs)), for \(question)")
        }
        print("gbstats parity: \(questions.count) SRM checks, worst relative difference \(worst)")
    }

    @Test("Student's t, the normal distribution, chi-square and the incomplete beta and gamma functions match scipy")
    func specialFunctionsMatch() throws {
        let answers = try Self.answers.get()
        let questions = ParityFixtures.questions.functions
        try #require(answers.functions.count == questions.count)
        var worst = 0.0
        for (question, theirs) in zip(questions, answers.functions) {
            let ours = ParityFixtures.swiftValue(question)
            let difference = Self.difference(ours, theirs)
            worst = max(worst, difference)
            #expect(difference <= Self.tolerance, "ours \(ours), scipy \(String(describing: theirs)), for \(question)")
        }
        print("gbstats parity: \(questions.count) special-function values, worst relative difference \(worst)")
    }
}
