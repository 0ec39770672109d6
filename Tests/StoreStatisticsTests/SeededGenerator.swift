import Foundation

/// SplitMix64: a small, fast, seeded generator, so every simulated experiment and generated
/// fixture is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator starting from `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1).
    mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A Bernoulli draw: true with probability `p`.
    mutating func bernoulli(_ p: Double) -> Bool {
        uniform() < p
    }

    /// A standard normal draw, by the Box–Muller transform.
    mutating func normal() -> Double {
        let u = 1 - uniform(), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
