/// How `storerules` prints how long something took: rounded to the millisecond, never as
/// `0.123456789`.
package enum PrintedDuration {
    /// `duration` in seconds, rounded to the millisecond: what a JSON report carries (`0.123`).
    package static func seconds(_ duration: Duration) -> Double {
        seconds(rounding: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// `seconds` rounded to the millisecond.
    package static func seconds(rounding seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }

    /// `seconds` for a reader: whole milliseconds under a second (`120 ms`), seconds with two
    /// decimals from one second on (`1.25 s`).
    package static func text(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
        let hundredths = (seconds * 100).rounded()
        let whole = Int(hundredths / 100)
        let fraction = Int(hundredths) - whole * 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
