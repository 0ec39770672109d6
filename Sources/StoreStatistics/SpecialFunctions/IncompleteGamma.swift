import Foundation

/// The regularized incomplete gamma functions `P(a, x)` and `Q(a, x) = 1 − P(a, x)`: by their
/// series below `x = a + 1` and by the continued fraction of `Q` above, so a small upper tail keeps
/// its relative precision. Both are NaN for `a` that is not positive and finite, or `x` NaN.
public enum IncompleteGamma {
    /// The upper regularized incomplete gamma function `Q(a, x) = Γ(a, x) / Γ(a)` for `a > 0`, `x ≥ 0`.
    public static func upper(a: Double, x: Double) -> Double {
        guard a > 0, a.isFinite, !x.isNaN else { return .nan }
        if x <= 0 { return 1 }
        if x < a + 1 { return 1 - series(a: a, x: x) }
        return continuedFraction(a: a, x: x)
    }

    /// The lower regularized incomplete gamma function `P(a, x) = γ(a, x) / Γ(a)` for `a > 0`, `x ≥ 0`.
    public static func lower(a: Double, x: Double) -> Double {
        guard a > 0, a.isFinite, !x.isNaN else { return .nan }
        if x <= 0 { return 0 }
        if x < a + 1 { return series(a: a, x: x) }
        return 1 - continuedFraction(a: a, x: x)
    }

    /// `e^(−x) x^a / Γ(a)`, the factor both expansions share.
    static func front(a: Double, x: Double) -> Double {
        exp(-x + a * log(x) - lgamma(a))
    }

    /// `P(a, x)` by its power series.
    static func series(a: Double, x: Double) -> Double {
        var term = 1 / a, sum = term, denominator = a
        for _ in 0..<maximumIterations {
            denominator += 1
            term *= x / denominator
            sum += term
            if abs(term) < abs(sum) * 1e-17 { break }
        }
        return sum * front(a: a, x: x)
    }

    /// `Q(a, x)` by its continued fraction (modified Lentz).
    static func continuedFraction(a: Double, x: Double) -> Double {
        let tiny = 1e-300
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var result = d
        for i in 1...maximumIterations {
            let step = Double(i)
            let an = -step * (step - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let change = d * c
            result *= change
            if abs(change - 1) < 1e-16 { break }
        }
        return result * front(a: a, x: x)
    }

    /// More than either expansion needs for the arguments a chi-square test of a few variants gives.
    static let maximumIterations = 100_000
}
