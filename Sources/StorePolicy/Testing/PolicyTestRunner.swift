import Foundation
import LuaBridge

/// Runs a folder's policy tests: every global function named `test_*` in each `*_test.lua`.
///
/// Each test file gets a fresh Lua state with the policy loaded as `policy`, the catalog as
/// `CATALOG`, the time of the run as `NOW`, the helpers of `PolicyTestLibrary`, and
/// `decide(hook, ctx, ...)`, which runs a hook through an engine of the same policy as a host
/// decides. Tests run in the order they are defined, each under the engine's limits; what a
/// test prints is kept with its outcome.
public struct PolicyTestRunner: Sendable {
    /// One test's outcome.
    public struct Outcome: Sendable, Equatable {
        /// The test file's name.
        public var file: String
        /// The test function's name.
        public var name: String
        /// The line the test function is defined on (0 for a file that did not load).
        public var line: Int
        /// Why it failed, or nil when it passed.
        public var failure: String?
        /// The chunk (a file name) the failure names, when it names one.
        public var failureFile: String?
        /// The line the failure names, when it names one.
        public var failureLine: Int?
        /// What the test printed, line by line (for a file's first test, with what the file
        /// printed while it loaded).
        public var output: [String] = []
        /// How long the test ran, in seconds.
        public var seconds: Double = 0
        /// Whether it passed.
        public var passed: Bool { failure == nil }

        /// Describes an outcome.
        public init(file: String, name: String, line: Int = 0, failure: String? = nil) {
            self.file = file
            self.name = name
            self.line = line
            self.failure = failure
        }

        /// The outcome failed with `error`, at the place it names.
        mutating func fail(with error: LuaError, message: String) {
            failure = message
            failureFile = error.chunkName
            failureLine = error.line
        }
    }

    private let source: PolicySource
    private let catalog: PolicyCatalog
    private let limits: LuaLimits
    private let now: Date

    /// Creates a runner for `source` with `catalog`.
    public init(source: PolicySource, catalog: PolicyCatalog, limits: LuaLimits = .default, now: Date = Date()) {
        self.source = source
        self.catalog = catalog
        self.limits = limits
        self.now = now
    }

    /// Runs the tests in `file` whose names `selected` accepts, calling `report` after each one,
    /// and counting the lines of the policy that run into `coverage` when given.
    ///
    /// A file that does not load is one failed outcome named after the file.
    public func run(file: URL, selected: (String) -> Bool = { _ in true }, coverage: PolicyCoverage? = nil,
                    report: (Outcome) -> Void = { _ in }) -> [Outcome] {
        let fileName = file.lastPathComponent
        var outcomes: [Outcome] = []
        let printed = PrintedLines()
        func record(_ outcome: Outcome) {
            var outcome = outcome
            outcome.output = printed.take()
            outcomes.append(outcome)
            report(outcome)
        }
        func failed(loading name: String, _ error: LuaError) -> Outcome {
            var outcome = Outcome(file: fileName, name: "(loading \(name))")
            outcome.fail(with: error, message: error.description)
            return outcome
        }
        do {
            let text = try String(contentsOf: file, encoding: .utf8)
            let state = try LuaState(limits: limits, print: { printed.append($0) })
            if let coverage { state.countLines(into: coverage.counts) }
            let environment = state.makeWritableEnvironment()
            let encoder = LuaEncoder()
            let catalogTable = try state.readOnlyReference(to: catalog, named: "CATALOG", encoder: encoder)
            let policy: LuaReference
            do {
                policy = try state.load(source.text, chunkName: source.chunkName)
            } catch {
                record(failed(loading: source.chunkName, error))
                return outcomes
            }
            let engine: PolicyEngine
            do {
                engine = try PolicyEngine(source: source, catalog: catalog, limits: limits, lineCounts: coverage?.counts)
            } catch {
                record(Outcome(file: fileName, name: "(loading \(source.chunkName))", failure: error.description))
                return outcomes
            }
            state.setField("policy", in: environment) { $0.push(policy) }
            coverage?.learn(from: state, policy: policy, source: source)
            try PolicyTestLibrary.install(in: state, environment: environment, catalog: catalogTable, now: now)
            PolicyTestLibrary.defineDecide(in: state, engine: engine)
            _ = try state.load(text, chunkName: fileName, environment: environment)
            let tests = state.functionNames(in: environment).filter { $0.hasPrefix("test_") && selected($0) }
            let ordered = try tests.map { name throws(LuaError) -> (String, LuaReference, Int) in
                let function = try state.functionReference(named: name, in: environment)!
                return (name, function, state.definitionLine(of: function) ?? 0)
            }.sorted { ($0.2, $0.0) < ($1.2, $1.0) }
            for (name, function, line) in ordered {
                let started = ContinuousClock.now
                var outcome = Outcome(file: fileName, name: name, line: line)
                do {
                    _ = try state.call(function, with: [], chunkName: fileName)
                } catch {
                    outcome.fail(with: error, message: error.location.map { "\($0): \(error.message)" } ?? error.description)
                }
                let elapsed = ContinuousClock.now - started
                outcome.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                record(outcome)
            }
        } catch let error as LuaError {
            record(failed(loading: fileName, error))
        } catch {
            record(Outcome(file: fileName, name: "(loading \(fileName))", failure: "\(error.localizedDescription)"))
        }
        return outcomes
    }
}

/// Lines a test file's state prints, kept until the outcome they belong to takes them.
private final class PrintedLines: @unchecked Sendable {
    private var lines: [String] = []

    func append(_ line: String) { lines.append(line) }

    func take() -> [String] {
        defer { lines = [] }
        return lines
    }
}
