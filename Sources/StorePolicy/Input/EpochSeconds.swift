import Foundation

/// Times in input as epoch seconds: any number from the start of year 1 to the end of year
/// 9999 (UTC), so that every time the host works with fits its integers.
enum EpochSeconds {
    /// The seconds the input may give.
    static let range: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// The date `seconds` after 1970, or nil when they are out of ``range``.
    static func date(_ seconds: Double) -> Date? {
        range.contains(seconds) ? Date(timeIntervalSince1970: seconds) : nil
    }

    /// The whole seconds of `date` since 1970, rounded down and kept within ``range`` so that
    /// they always fit an `Int64`; 0 for a date that is not a number.
    static func whole(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else { return 0 }
        return Int64(min(max(seconds, range.lowerBound), range.upperBound))
    }
}

extension KeyedDecodingContainer {
    /// The date in `key`, written as epoch seconds within ``EpochSeconds/range``; nil when the
    /// field is absent or null.
    func decodeEpochSecondsIfPresent(forKey key: Key) throws -> Date? {
        guard let seconds = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard let date = EpochSeconds.date(seconds) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "expected epoch seconds from \(Int64(EpochSeconds.range.lowerBound)) to \(Int64(EpochSeconds.range.upperBound)) (years 1 to 9999), found \(seconds)")
        }
        return date
    }
}
