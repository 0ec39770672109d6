import Foundation

/// Student's t distribution with any positive, not necessarily whole, number of degrees of
/// freedom: its tails through the regularized incomplete beta function, its quantile by a
/// safeguarded Newton iteration on the logarithm of the tail. Every function is NaN for degrees
/// of freedom that are not positive and finite.
public enum StudentT {
    /// `P(T ≤ t)` with `degreesOfFreedom` degrees of freedom.
    public static func cdf(_ t: Double, degreesOfFreedom: Double) -> Double {
        t < 0 ? tail(-t, degreesOfFreedom) : 1 - tail(t, degreesOfFreedom)
    }

    /// `P(T > t)`, exact in relative terms far into the upper tail.
    public static func survival(_ t: Double, degreesOfFreedom: Double) -> Double {
        t < 0 ? 1 - tail(-t, degreesOfFreedom) : tail(t, degreesOfFreedom)
    }

    /// The density at `t`.
    public static func density(_ t: Double, degreesOfFreedom df: Double) -> Double {
        exp(-(df + 1) / 2 * log1p(t * t / df) - 0.5 * log(df) - LogGamma.logBeta(df / 2, 0.5))
    }

    /// The `t` with `P(T ≤ t) = p`, for `p` in `(0, 1)`.
    public static func quantile(_ p: Double, degreesOfFreedom: Double) -> Double {
        guard degreesOfFreedom > 0, degreesOfFreedom.isFinite, !p.isNaN else { return .nan }
        if p <= 0 { return -.infinity }
        if p >= 1 { return .infinity }
        if p == 0.5 { return 0 }
        return p > 0.5 ? upperQuantile(tailProbability: 1 - p, degreesOfFreedom: degreesOfFreedom)
            : -upperQuantile(tailProbability: p, degreesOfFreedom: degreesOfFreedom)
    }

    /// The `t` with `P(T > t) = q`, for `q` in `(0, 1)`, without forming `1 − q`.
    public static func upperQuantile(tailProbability q: Double, degreesOfFreedom df: Double) -> Double {
        guard df > 0, df.isFinite, !q.isNaN else { return .nan }
        if q <= 0 { return .infinity }
        if q >= 1 { return -.infinity }
        if q > 0.5 { return -upperQuantile(tailProbability: 1 - q, degreesOfFreedom: df) }
        if q == 0.5 { return 0 }
        let target = log(q)
        // A bracket [low, high] in t with tail(low) ≥ q ≥ tail(high), and a start inside it.
        var low = 0.0
        var high = max(startingPoint(q, df), 1e-300)
        while tail(high, df) > q {
            low = high
            high *= 4
        }
        var t = high
        for _ in 0..<200 {
            let probability = tail(t, df)
            if probability > q { low = t } else { high = t }
            // Newton's step on log tail(t) against log t: d log tail / d log t = −t f(t) / tail(t).
            let slope = -t * density(t, degreesOfFreedom: df) / probability
            var next = t * exp((target - log(probability)) / slope)
            if !(next > low && next < high) || !next.isFinite {
                next = low > 0 ? (low * high).squareRoot() : high / 2
            }
            if abs(next - t) <= 4 * Double.ulpOfOne * t { return next }
            t = next
        }
        return t
    }

    /// `P(T > t)` for `t ≥ 0`: `½ I_x(ν/2, ½)` with `x = ν/(ν + t²)`.
    static func tail(_ t: Double, _ df: Double) -> Double {
        let square = t * t
        let x = df / (df + square), complement = square / (df + square)
        return 0.5 * IncompleteBeta.regularized(a: df / 2, b: 0.5, x: x, complement: complement)
    }

    /// A first guess: the normal quantile corrected by the Cornish–Fisher expansion in `1/ν`,
    /// or for few degrees of freedom the tail's power law `P(T > t) ≈ c t^(−ν)`.
    static func startingPoint(_ q: Double, _ df: Double) -> Double {
        let z = Normal.upperQuantile(tailProbability: q)
        let cornishFisher = z + (z * z * z + z) / (4 * df) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df)
        if df >= 3 { return cornishFisher }
        let powerLaw = exp((log(df * q) + LogGamma.logBeta(df / 2, 0.5)) / -df) * df.squareRoot()
        return max(cornishFisher, powerLaw)
    }
}
