import Foundation
import StoreCore

/// `scripts/metrics-judge/judge.py`, run with the system's Python over a ledger, and the
/// comparison of its report with the ledger's own.
enum MetricsJudge {
    static let script = CommandRunner.packageRoot.appending(path: "scripts/metrics-judge/judge.py").path

    /// The judge's report, and what it said on standard error (its MRR movement check).
    struct Judged {
        let report: [String: Any]
        let problems: String
    }

    struct Failure: Error, CustomStringConvertible {
        let what: String
        let output: String
        var description: String { "\(what) failed: \(output)" }
    }

    /// Runs the judge, with its movement check, over the ledger at `ledger` (a SQLite path or
    /// a PostgreSQL URL).
    static func run(ledger: String, arguments: [String]) throws -> Judged {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--ledger", ledger, "--check"] + arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let report = try? JSONSerialization.jsonObject(with: printed) as? [String: Any]
        else { throw Failure(what: "judge.py \(arguments.joined(separator: " "))", output: said) }
        return Judged(report: report, problems: said)
    }

    /// The ledger's report as its JSON reads.
    static func object(_ metrics: SubscriptionMetrics) throws -> [String: Any] {
        let data = try JSONEncoder().encode(metrics)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(what: "reading the ledger's report", output: String(decoding: data, as: UTF8.self))
        }
        return object
    }

    /// A UTC date (its midnight) or an ISO 8601 time.
    static func date(_ text: String) -> Date? {
        if text.count == 10 { return ISO8601DateFormatter().date(from: text + "T00:00:00Z") }
        return ISO8601DateFormatter().date(from: text)
    }

    /// Every place where `ledger`'s report and `judge`'s (or the figures expected) differ: a key
    /// one lacks, another value, or a number further than 1e-9 relative from the judge's. Each
    /// names its path, with an interval's start in place of its index, and both values.
    static func differences(_ ledger: Any, _ judge: Any, at path: String = "") -> [String] {
        switch (ledger, judge) {
        case (let ledger as [String: Any], let judge as [String: Any]):
            return Set(ledger.keys).union(judge.keys).sorted().flatMap { key -> [String] in
                guard let left = ledger[key], let right = judge[key] else {
                    return ["\(path)/\(key): \(ledger[key].map { "\($0)" } ?? "absent") ≠ \(judge[key].map { "\($0)" } ?? "absent")"]
                }
                return differences(left, right, at: "\(path)/\(key)")
            }
        case (let ledger as [Any], let judge as [Any]):
            guard ledger.count == judge.count else { return ["\(path): \(ledger.count) elements ≠ \(judge.count)"] }
            return zip(ledger, judge).enumerated().flatMap { index, pair in
                let name = ((pair.1 as? [String: Any])?["start"] as? String) ?? "\(index)"
                return differences(pair.0, pair.1, at: "\(path)[\(name)]")
            }
        case (let ledger as NSNumber, let judge as NSNumber):
            let (left, right) = (ledger.doubleValue, judge.doubleValue)
            return abs(left - right) <= 1e-9 * max(abs(left), abs(right)) ? [] : ["\(path): \(left) ≠ \(right)"]
        case (let ledger as String, let judge as String):
            return ledger == judge ? [] : ["\(path): \(ledger) ≠ \(judge)"]
        case (is NSNull, is NSNull):
            return []
        default:
            return ["\(path): \(ledger) ≠ \(judge)"]
        }
    }
}
