import Foundation

/// The outcomes of a test run as CI systems read them: JUnit XML, or one JSON object per test
/// and a summary.
public struct PolicyTestReport: Sendable {
    /// Every outcome, in the order the tests ran.
    public var outcomes: [PolicyTestRunner.Outcome]
    /// The folder the test files are in, as the files' paths in the report begin.
    public var folder: String

    /// A report of `outcomes`, whose files are in `folder`.
    public init(outcomes: [PolicyTestRunner.Outcome], folder: String) {
        self.outcomes = outcomes
        self.folder = folder
    }

    /// How many tests passed and failed, and how long they took.
    public struct Summary: Sendable, Equatable, Encodable {
        /// The tests run.
        public var tests: Int
        /// Those that passed.
        public var passed: Int
        /// Those that failed.
        public var failed: Int
        /// Their time, in seconds, rounded to the millisecond.
        public var seconds: Double
    }

    /// The run's totals.
    public var summary: Summary {
        let failed = outcomes.filter { !$0.passed }.count
        return Summary(tests: outcomes.count, passed: outcomes.count - failed, failed: failed,
                       seconds: PrintedDuration.seconds(rounding: outcomes.reduce(0) { $0 + $1.seconds }))
    }

    /// One JSON object per test, then `{"summary": {...}}`, one per line.
    public func jsonLines() throws -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var lines = try outcomes.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        lines.append(String(decoding: try encoder.encode(["summary": summary]), as: UTF8.self))
        return lines
    }

    /// The run as JUnit XML: a `testsuite` per test file, a `testcase` per test with its file
    /// and line, a `failure` with the message for a failed one, and what it printed as
    /// `system-out`.
    public func junitXML() -> String {
        var files: [String] = []
        var byFile: [String: [PolicyTestRunner.Outcome]] = [:]
        for outcome in outcomes {
            if byFile[outcome.file] == nil { files.append(outcome.file) }
            byFile[outcome.file, default: []].append(outcome)
        }
        let total = summary
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="storerules test" tests="\#(total.tests)" failures="\#(total.failed)" errors="0" time="\#(Self.time(total.seconds))">"# + "\n"
        for file in files {
            let cases = byFile[file] ?? []
            let failures = cases.filter { !$0.passed }.count
            let seconds = cases.reduce(0) { $0 + $1.seconds }
            xml += #"  <testsuite name="\#(Self.escaped(file))" tests="\#(cases.count)" failures="\#(failures)" errors="0" skipped="0" time="\#(Self.time(seconds))">"# + "\n"
            for outcome in cases {
                let path = folder.isEmpty ? outcome.file : (folder as NSString).appendingPathComponent(outcome.file)
                let classname = (outcome.file as NSString).deletingPathExtension
                xml += #"    <testcase name="\#(Self.escaped(outcome.name))" classname="\#(Self.escaped(classname))" file="\#(Self.escaped(path))" line="\#(outcome.line)" time="\#(Self.time(outcome.seconds))">"#
                xml += "\n"
                if let failure = outcome.failure {
                    let firstLine = failure.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? failure
                    xml += #"      <failure message="\#(Self.escaped(firstLine))" type="failure">\#(Self.escaped(failure))</failure>"# + "\n"
                }
                if !outcome.output.isEmpty {
                    xml += "      <system-out>\(Self.escaped(outcome.output.joined(separator: "\n")))</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func time(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }

    /// `text` for an XML attribute or element: markup characters as entities, and characters
    /// XML 1.0 cannot hold at all (controls other than tab and line ends) as U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xFFFE...0xFFFF).contains(value)
                result.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return result
    }
}

extension PolicyTestRunner.Outcome: Encodable {
    private enum CodingKeys: String, CodingKey {
        case file, name, line, passed, failure, failureFile = "failure_file", failureLine = "failure_line", output, seconds
    }

    /// Writes the outcome with snake_case keys; `failure` and its place only for a failed test,
    /// `seconds` rounded to the millisecond.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(name, forKey: .name)
        try container.encode(line, forKey: .line)
        try container.encode(passed, forKey: .passed)
        try container.encodeIfPresent(failure, forKey: .failure)
        try container.encodeIfPresent(failureFile, forKey: .failureFile)
        try container.encodeIfPresent(failureLine, forKey: .failureLine)
        try container.encode(output, forKey: .output)
        try container.encode(PrintedDuration.seconds(rounding: seconds), forKey: .seconds)
    }
}
