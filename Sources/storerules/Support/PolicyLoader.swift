import CommandLineOptions
import Foundation
import LuaBridge
import StoreCore
import StorePolicy

/// Opens a policy folder for a command, turning failures into one-line errors.
enum PolicyLoader {
    /// The folder, its catalog and an engine running its policy.
    static func engine(forFolder path: String, limits: LuaLimits = .default,
                       print: @escaping @Sendable (String) -> Void = { Output.error("[policy] " + $0) }) throws -> PolicyEngine {
        let (folder, catalog) = try open(path)
        return try engine(for: folder, catalog: catalog, limits: limits, print: print)
    }

    /// An engine running the policy of `folder`, opened already, over its `catalog`.
    static func engine(for folder: PolicyFolder, catalog: Catalog?, limits: LuaLimits = .default,
                       print: @escaping @Sendable (String) -> Void = { Output.error("[policy] " + $0) }) throws -> PolicyEngine {
        do {
            let engine = try PolicyEngine(source: try folder.policySource(),
                                          catalog: catalog.map(PolicyCatalog.init) ?? .empty, limits: limits, print: print)
            for warning in engine.warnings { Output.error("storerules: warning: \(warning)") }
            return engine
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The options that set the limits of policy calls.
    static let instructionBudget = TypedOption<Int>.positive(
        "instruction-budget", help: "Lua instructions one hook call may run (default 10000000).")
    static let deadline = TypedOption<Int>.positive("deadline-ms", help: "Milliseconds one hook call may take (default 250).")
    static let memoryLimit = TypedOption<Int>.positive("memory-limit-mb", help: "Megabytes one Lua state may hold (default 64).")
    static let limitOptions: [CommandOption] = [instructionBudget.option, deadline.option, memoryLimit.option]

    /// The limits the command line asks for, defaults elsewhere.
    static func limits(_ parsed: ParsedArguments) throws(UsageError) -> LuaLimits {
        var limits = LuaLimits.default
        if let budget = try parsed.value(of: instructionBudget) { limits.instructionBudget = budget }
        if let milliseconds = try parsed.value(of: deadline) { limits.deadline = .milliseconds(milliseconds) }
        if let megabytes = try parsed.value(of: memoryLimit) { limits.memoryLimit = megabytes << 20 }
        return limits
    }

    /// The folder's policy, a failure to read it as a one-line error.
    static func source(of folder: PolicyFolder) throws -> PolicySource {
        do {
            return try folder.policySource()
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The folder and its catalog, if it has one.
    static func open(_ path: String) throws -> (PolicyFolder, Catalog?) {
        do {
            let folder = try PolicyFolder(URL(fileURLWithPath: path))
            do {
                return (folder, try folder.loadCatalog())
            } catch {
                throw CommandFailure(error.description)
            }
        } catch let error as PolicyError {
            throw CommandFailure(error.description)
        }
    }
}
