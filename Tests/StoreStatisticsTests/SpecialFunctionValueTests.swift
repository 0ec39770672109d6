import StoreStatistics
import Testing

/// A few values of the special functions as scipy gives them, to 1e-9 relative, checked with or
/// without the judge's virtual environment; the parity suite checks hundreds more against scipy
/// itself.
@Suite struct SpecialFunctionValueTests {
    static func close(_ ours: Double, _ reference: Double) -> Bool {
        abs(ours - reference) <= 1e-9 * abs(reference)
    }

    @Test("Student's t quantiles and tails from one degree of freedom to ten million")
    func studentT() {
        #expect(Self.close(StudentT.quantile(0.975, degreesOfFreedom: 1), 12.706204736174694))
        #expect(Self.close(StudentT.quantile(0.975, degreesOfFreedom: 4000), 1.9605572287937332))
        #expect(Self.close(StudentT.quantile(0.025, degreesOfFreedom: 4000), -1.9605572287937332))
        #expect(Self.close(StudentT.upperQuantile(tailProbability: 1e-12, degreesOfFreedom: 2.5), 55306.17407651582))
        #expect(Self.close(StudentT.survival(7, degreesOfFreedom: 3), 0.0029931278488535486))
        #expect(Self.close(StudentT.survival(5.5, degreesOfFreedom: 1e7), 1.899002523373364e-08))
        #expect(StudentT.cdf(0, degreesOfFreedom: 7) == 0.5)
    }

    @Test("the normal quantile and tail, and chi-square's tail")
    func normalAndChiSquare() {
        #expect(Self.close(Normal.quantile(0.975), 1.959963984540054))
        #expect(Self.close(Normal.survival(7), 1.279812543885835e-12))
        #expect(Self.close(ChiSquare.survival(40, degreesOfFreedom: 1), 2.5396285894708634e-10))
        #expect(Self.close(ChiSquare.survival(3.841458820694124, degreesOfFreedom: 1), 0.04999999999999989))
    }
}
