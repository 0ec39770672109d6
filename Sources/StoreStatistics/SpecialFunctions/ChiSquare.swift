import Foundation

/// The chi-square distribution, through the regularized incomplete gamma function.
public enum ChiSquare {
    /// `P(X > x)` with `degreesOfFreedom` degrees of freedom (positive).
    public static func survival(_ x: Double, degreesOfFreedom: Double) -> Double {
        IncompleteGamma.upper(a: degreesOfFreedom / 2, x: x / 2)
    }

    /// `P(X ≤ x)` with `degreesOfFreedom` degrees of freedom (positive).
    public static func cdf(_ x: Double, degreesOfFreedom: Double) -> Double {
        IncompleteGamma.lower(a: degreesOfFreedom / 2, x: x / 2)
    }
}
