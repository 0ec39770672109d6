import Foundation

/// The logarithms of the gamma and beta functions, written so that differences of large
/// arguments keep their precision: `log B(a, b)` for `a` in the millions and `b = 1/2` is
/// computed from Stirling's series, not as a difference of two logarithms near 10⁸.
public enum LogGamma {
    /// `log Γ(x)` for `x > 0`.
    public static func logGamma(_ x: Double) -> Double {
        lgamma(x)
    }

    /// `log B(a, b) = log Γ(a) + log Γ(b) − log Γ(a + b)` for `a, b > 0`.
    public static func logBeta(_ a: Double, _ b: Double) -> Double {
        let small = min(a, b), large = max(a, b)
        if large < stirlingThreshold {
            return lgamma(a) + lgamma(b) - lgamma(a + b)
        }
        let total = a + b
        if small < stirlingThreshold {
            // log Γ(large) − log Γ(large + small), each side by Stirling's series.
            let difference = -(large - 0.5) * log1p(small / large) - small * log(total) + small
                + stirlingRemainder(large) - stirlingRemainder(total)
            return lgamma(small) + difference
        }
        return 0.5 * log(2 * Double.pi) - 0.5 * log(total)
            + (small - 0.5) * log(small / total) - (large - 0.5) * log1p(small / large)
            + stirlingRemainder(small) + stirlingRemainder(large) - stirlingRemainder(total)
    }

    /// From this argument on, Stirling's series with five terms is exact to about 1e-14.
    static let stirlingThreshold = 10.0

    /// `log Γ(x) − ((x − 1/2) log x − x + log √(2π))` for `x ≥ 10`: the remainder of Stirling's series.
    static func stirlingRemainder(_ x: Double) -> Double {
        let inverseSquare = 1 / (x * x)
        let series = 1.0 / 12 - inverseSquare * (1.0 / 360 - inverseSquare * (1.0 / 1260 - inverseSquare * (1.0 / 1680 - inverseSquare / 1188)))
        return series / x
    }
}
