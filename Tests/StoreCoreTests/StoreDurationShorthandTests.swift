import StoreCore
import Testing

/// Durations as people type them at a prompt or on a command line.
@Suite struct StoreDurationShorthandTests {
    @Test("the short forms read as their ISO 8601 durations, in any letter case")
    func shortFormsReadAsISO8601() {
        #expect(StoreDuration(shorthand: "1M") == StoreDuration(months: 1))
        #expect(StoreDuration(shorthand: "3d") == StoreDuration(days: 3))
        #expect(StoreDuration(shorthand: "2W") == StoreDuration(weeks: 2))
        #expect(StoreDuration(shorthand: "1Y") == StoreDuration(years: 1))
        #expect(StoreDuration(shorthand: "12H") == StoreDuration(hours: 12))
        #expect(StoreDuration(shorthand: "1D12H") == StoreDuration(days: 1, hours: 12))
        #expect(StoreDuration(shorthand: "pt30m") == StoreDuration(minutes: 30))
    }

    @Test("text that is no duration is refused")
    func nonsenseIsRefused() {
        for text in ["", "M", "1Q", "-1D", "1.5D", "P"] {
            #expect(StoreDuration(shorthand: text) == nil, "\(text)")
        }
    }
}
