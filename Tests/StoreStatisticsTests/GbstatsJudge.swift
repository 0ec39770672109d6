import Foundation

/// GrowthBook's gbstats 0.8.0, run as the reference StoreStatistics must match, through
/// `scripts/statistics/gbstats_judge.py` with the interpreter of `<package root>/.venv-gbstats`
/// that `scripts/statistics/setup.sh` creates.
enum GbstatsJudge {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The virtual environment's interpreter.
    static let python = packageRoot.appending(path: ".venv-gbstats/bin/python")
    /// The script that asks gbstats.
    static let script = packageRoot.appending(path: "scripts/statistics/gbstats_judge.py")

    /// Whether the virtual environment exists; the parity tests are skipped without it outside CI.
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: python.path) }

    /// One variant's aggregates as gbstats' statistics take them.
    struct Aggregate: Codable {
        var n: Int
        var sum: Double
        var sum_squares: Double
    }

    /// One comparison to make.
    struct ComparisonQuestion: Codable {
        var test: String
        var difference: String
        var alpha: Double
        var tuning: Double
        var statistic: String
        var control: Aggregate
        var treatment: Aggregate
    }

    /// One sample-ratio-mismatch check to make.
    struct MismatchQuestion: Codable {
        var counts: [Int]
        var weights: [Double]
    }

    /// One value of a special function to compute with scipy: its name and arguments.
    struct FunctionQuestion: Codable {
        var name: String
        var x: Double?
        var p: Double?
        var df: Double?
        var a: Double?
        var b: Double?
    }

    /// Everything asked in one run.
    struct Questions: Codable {
        var comparisons: [ComparisonQuestion]
        var srm: [MismatchQuestion]
        var functions: [FunctionQuestion]
    }

    /// gbstats' answer to one comparison.
    struct ComparisonAnswer: Codable {
        var expected: Double?
        var ci: [Double?]
        var p_value: Double?
        var stddev: Double?
        var error_message: String?
        var dof: Double?
    }

    /// Every answer, in the order asked.
    struct Answers: Codable {
        var comparisons: [ComparisonAnswer]
        var srm: [Double?]
        var functions: [Double?]
    }

    /// A failure of the judge itself.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Asks every question in one interpreter run.
    static func answer(_ questions: Questions) throws -> Answers {
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let body = try JSONEncoder().encode(questions)
        let writer = Thread {
            input.fileHandleForWriting.write(body)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "gbstats_judge.py exited with \(process.terminationStatus): "
                + String(decoding: complaints, as: UTF8.self))
        }
        return try JSONDecoder().decode(Answers.self, from: printed)
    }
}
