import Foundation

/// The regularized incomplete beta function `I_x(a, b)`, by its continued fraction (modified
/// Lentz), with `x` and `1 − x` given separately so that a value of `x` a hair from 1 keeps its
/// precision, as Student's t needs for millions of degrees of freedom.
public enum IncompleteBeta {
    /// `I_x(a, b)` for `a, b > 0` and `x` in `[0, 1]`, where `complement` is `1 − x` computed
    /// without cancellation by the caller; NaN for arguments outside those ranges.
    public static func regularized(a: Double, b: Double, x: Double, complement: Double) -> Double {
        guard a > 0, b > 0, a.isFinite, b.isFinite, x >= 0, complement >= 0 else { return .nan }
        if x <= 0 { return 0 }
        if complement <= 0 { return 1 }
        if x < (a + 1) / (a + b + 2) {
            return front(a: a, b: b, x: x, complement: complement) * continuedFraction(a: a, b: b, x: x) / a
        }
        return 1 - front(a: b, b: a, x: complement, complement: x) * continuedFraction(a: b, b: a, x: complement) / b
    }

    /// `x^a (1 − x)^b / B(a, b)`, through logarithms; the smaller of `x` and `1 − x` is the one
    /// whose logarithm is taken directly, the other through `log1p`.
    static func front(a: Double, b: Double, x: Double, complement: Double) -> Double {
        let logX = x < 0.5 ? log(x) : log1p(-complement)
        let logComplement = complement < 0.5 ? log(complement) : log1p(-x)
        return exp(a * logX + b * logComplement - LogGamma.logBeta(a, b))
    }

    /// The continued fraction of `I_x(a, b)`, which converges quickly for `x < (a + 1)/(a + b + 2)`.
    static func continuedFraction(a: Double, b: Double, x: Double) -> Double {
        let tiny = 1e-300, epsilon = 1e-16
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...maximumIterations {
            let m = Double(m), twoM = 2 * m
            let even = m * (b - m) * x / ((a + twoM - 1) * (a + twoM))
            d = 1 + even * d
            if abs(d) < tiny { d = tiny }
            c = 1 + even / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + twoM) * (a + twoM + 1))
            d = 1 + odd * d
            if abs(d) < tiny { d = tiny }
            c = 1 + odd / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            result *= step
            if abs(step - 1) < epsilon { break }
        }
        return result
    }

    /// Enough for the fraction to converge with `a` or `b` up to about 10¹⁰, where it needs a few
    /// times `√max(a, b)` steps near the switch point.
    static let maximumIterations = 1_000_000
}
