import Testing
@testable import StorePolicy

@Suite struct PrintedDurationTests {
    @Test func durationsReadAsMillisecondsUnderASecondAndSecondsWithTwoDecimalsAfter() {
        #expect(PrintedDuration.text(0.123456789) == "123 ms")
        #expect(PrintedDuration.text(0.0004) == "0 ms")
        #expect(PrintedDuration.text(0.9996) == "1.00 s")
        #expect(PrintedDuration.text(1.23456) == "1.23 s")
        #expect(PrintedDuration.text(61.5) == "61.50 s")
        #expect(PrintedDuration.seconds(.nanoseconds(123_456_789)) == 0.123)
    }

    @Test func aTestReportsJSONAndJUnitCarryMilliseconds() throws {
        var outcome = PolicyTestRunner.Outcome(file: "policy_test.lua", name: "test_slow", line: 3)
        outcome.seconds = 0.123456789
        let report = PolicyTestReport(outcomes: [outcome], folder: "")
        let lines = try report.jsonLines()
        #expect(lines[0].hasSuffix(#""seconds":0.123}"#), "\(lines[0])")
        #expect(lines[1] == #"{"summary":{"failed":0,"passed":1,"seconds":0.123,"tests":1}}"#)
        #expect(report.junitXML().contains(#"time="0.123">"#))
        #expect(!report.junitXML().contains("0.123457"))
    }
}
