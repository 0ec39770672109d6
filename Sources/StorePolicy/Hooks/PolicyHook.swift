import Foundation
import LuaBridge

/// One hook a policy may define, whole: its name, how a request's arguments are read and the
/// hook run on them (its result validated, its default and its failure rule applied by the
/// engine's method for it), the scenarios `storerules diff` asks it about, and the requests
/// that show it (the fuzz target's seeds).
///
/// Every hook lives in a folder of its own under `Hooks/` and is listed once in
/// ``HookRegistry/all``; the engine's dispatch, `eval`, `test`'s `decide`, `diff` and the
/// lint's known names are read from there. Every hook is optional; a missing hook means its
/// documented default (see `docs/hooks/NAME.md`).
public struct PolicyHook: Sendable {
    /// The hook's name in Lua.
    public let name: String
    /// Requests for the hook as `storerules eval --jsonl` reads them, one JSON object each.
    public let exampleRequests: [String]
    /// Whether the hook decides about a subject its arguments give (a purchase, a
    /// subscription), so `diff` tries each variation of the context on one customer only:
    /// its arguments already multiply the matrix.
    let decidesAboutItsArguments: Bool
    /// Runs the hook on a request's arguments, validated as a host validates its result.
    let run: @Sendable (HookArguments) throws(PolicyError) -> Decision<HookResult>
    /// The argument lists `diff` asks the hook with.
    let scenarios: @Sendable (HookScenarioInputs) -> [[LuaValue]]

    /// A hook named `name`.
    init(name: String, exampleRequests: [String], decidesAboutItsArguments: Bool = false,
         run: @escaping @Sendable (HookArguments) throws(PolicyError) -> Decision<HookResult>,
         scenarios: @escaping @Sendable (HookScenarioInputs) -> [[LuaValue]]) {
        self.name = name
        self.exampleRequests = exampleRequests
        self.decidesAboutItsArguments = decidesAboutItsArguments
        self.run = run
        self.scenarios = scenarios
    }

    /// The hook's page in the documentation, relative to the package.
    public var documentationPath: String { "docs/hooks/\(name).md" }
}

extension PolicyHook: Hashable {
    /// Hooks are equal when their names are.
    public static func == (lhs: PolicyHook, rhs: PolicyHook) -> Bool {
        lhs.name == rhs.name
    }

    /// Hashes the hook's name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}
