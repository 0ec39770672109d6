import Foundation
import StoreCore
import Testing

/// Times written by arithmetic read as Foundation reads them, and back to the same millisecond.
@Suite struct ISO8601MillisecondsTests {
    @Test("a time is written as Foundation writes it, at its nearest millisecond, and read back to that millisecond")
    func roundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        // Foundation's calendar is Julian before 1582; from 1600 on both are Gregorian.
        let since1600: Int64 = -11_676_096_000_000, until9999: Int64 = 253_402_300_799_999
        let samples: [Int64] = [0, -1, 1, 951_782_400_000, 4_107_542_399_999, since1600, until9999]
            + (0..<2000).map { _ in Int64.random(in: since1600...until9999, using: &generator) }
        for milliseconds in samples {
            let date = Date(millisecondsSince1970: milliseconds)
            let text = ISO8601Milliseconds.text(of: date)
            let parsed = try #require(try? Date(text, strategy: style), "\(text)")
            #expect(Int64((parsed.timeIntervalSince1970 * 1000).rounded()) == milliseconds, "\(text) for \(milliseconds)")
            #expect(ISO8601Milliseconds.date(from: text)?.millisecondsSince1970 == milliseconds, "\(text)")
        }
        let first = Date(millisecondsSince1970: -62_135_596_800_000)
        #expect(ISO8601Milliseconds.text(of: first) == "0001-01-01T00:00:00.000Z", "the proleptic Gregorian calendar")
        #expect(ISO8601Milliseconds.date(from: "0001-01-01T00:00:00.000Z") == first)
        #expect(ISO8601Milliseconds.text(of: Date(timeIntervalSince1970: 1798.941)) == "1970-01-01T00:29:58.941Z")
        #expect(ISO8601Milliseconds.date(from: "2026-13-04T16:27:30.941Z") == nil)
        #expect(ISO8601Milliseconds.date(from: "not a time") == nil)
    }
}
