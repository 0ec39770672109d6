import Foundation
import LuaBridge

/// Runs a folder's policy tests: every global function named `test_*` in each `*_test.lua`.
///
/// Each test file gets a fresh Lua state with the policy loaded as `policy`, the catalog as
/// `CATALOG`, the time of the run as `NOW`, and the helpers of `PolicyTestLibrary`. Tests run in
/// the order they are defined, each under the engine's limits.
public struct PolicyTestRunner: Sendable {
    /// One test's outcome.
    public struct Outcome: Sendable, Equatable {
        /// The test file's name.
        public var file: String
        /// The test function's name.
        public var name: String
        /// Why it failed, or nil when it passed.
        public var failure: String?
        /// Whether it passed.
        public var passed: Bool { failure == nil }
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

    /// Runs the tests in `file`, calling `report` after each one.
    ///
    /// A file that does not load is one failed outcome named after the file.
    public func run(file: URL, print: @escaping LuaState.PrintHandler = { _ in }, report: (Outcome) -> Void = { _ in }) -> [Outcome] {
        let fileName = file.lastPathComponent
        var outcomes: [Outcome] = []
        func record(_ outcome: Outcome) {
            outcomes.append(outcome)
            report(outcome)
        }
        do {
            let text = try String(contentsOf: file, encoding: .utf8)
            let state = try LuaState(limits: limits, print: print)
            let environment = state.makeWritableEnvironment()
            let encoder = LuaEncoder()
            let catalogTable = try state.readOnlyReference(to: catalog, named: "CATALOG", encoder: encoder)
            let policy: LuaReference
            do {
                policy = try state.load(source.text, chunkName: source.chunkName)
            } catch {
                record(Outcome(file: fileName, name: "(loading \(source.chunkName))", failure: error.description))
                return outcomes
            }
            state.setField("policy", in: environment) { $0.push(policy) }
            try PolicyTestLibrary.install(in: state, environment: environment, catalog: catalogTable, now: now)
            _ = try state.load(text, chunkName: fileName, environment: environment)
            let tests = state.functionNames(in: environment).filter { $0.hasPrefix("test_") }
            let ordered = try tests.map { name throws(LuaError) -> (String, LuaReference, Int) in
                let function = try state.functionReference(named: name, in: environment)!
                return (name, function, state.definitionLine(of: function) ?? 0)
            }.sorted { ($0.2, $0.0) < ($1.2, $1.0) }
            for (name, function, _) in ordered {
                do {
                    _ = try state.call(function, with: [], chunkName: fileName)
                    record(Outcome(file: fileName, name: name, failure: nil))
                } catch {
                    record(Outcome(file: fileName, name: name, failure: error.location.map { "\($0): \(error.message)" } ?? error.description))
                }
            }
        } catch let error as LuaError {
            record(Outcome(file: fileName, name: "(loading \(fileName))", failure: error.description))
        } catch {
            record(Outcome(file: fileName, name: "(loading \(fileName))", failure: "\(error.localizedDescription)"))
        }
        return outcomes
    }
}
