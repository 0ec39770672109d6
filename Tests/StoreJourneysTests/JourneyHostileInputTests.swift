import Foundation
import StoreJourneys
import StorePolicy
import Testing

/// Bytes the journey decoder may not trap on: each gives a typed error.
@Suite struct JourneyHostileInputTests {
    @Test("steps nested 100,000 deep are refused at the depth limit without recursing")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(journeyError(#"{"steps":"# + deep)?.description == "refused: line 1, column 73: lists and objects nest deeper than 64 levels")
    }

    @Test("a step's field given twice is refused with its path")
    func duplicateFields() {
        #expect(journeyError(#"{"steps":[{"action":"approve"},{"action":"approve","note":"a","note":"b"}]}"#)?.description
                == "steps[1]: field 'note' appears twice")
    }

    @Test("arbitrary bytes never trap the journey decoder")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]":,\-+.eE0123456789 tfnul"abcsteps\u00"#.utf8) + [0x00, 0xFF, 0xC3, 0x0A]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &generator)
            _ = journeyError(Data((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
        }
    }
}
