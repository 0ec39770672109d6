import LuaBridge

/// What is suspicious in a loaded policy table, though it loads: a key that is neither a known
/// hook nor declared in `custom_hooks` (a misspelled hook such as `show_merchandize` is never
/// called, and its default applies silently), and a declared custom hook the policy does not
/// define.
///
/// A policy declares the functions of its own that hosts call by name as
/// `custom_hooks = { "upgrade_offer", ... }` in its table.
public struct PolicyLint: Sendable, Equatable {
    /// The key in the policy table that declares custom hooks.
    public static let customHooksKey = "custom_hooks"
    /// The key in the policy table that declares experiments (``ExperimentDeclaration``).
    public static let experimentsKey = "experiments"

    /// One line per finding, naming the key and, for a near miss, the hook it resembles.
    public var warnings: [String]

    /// The findings for a policy table with `keys` (every string key, whatever its value),
    /// `functions` among them, declaring `declaredCustom`.
    init(keys: Set<String>, functions: Set<String>, declaredCustom: [String]) {
        let known = HookRegistry.names
        let declared = Set(declaredCustom)
        var warnings: [String] = []
        for key in keys.sorted() where !known.contains(key) && !declared.contains(key) && key != Self.customHooksKey && key != Self.experimentsKey {
            let hint = Self.resembledHook(key, in: known).map { "; did you mean '\($0)'?" }
                ?? "; declare a function of your own in \(Self.customHooksKey)"
            warnings.append("the policy table's key '\(key)' is not a hook\(hint)")
        }
        for name in declaredCustom.sorted() where !functions.contains(name) {
            warnings.append("\(Self.customHooksKey) names '\(name)', which the policy table does not define as a function")
        }
        self.warnings = warnings
    }

    /// The hook `key` most resembles, within a third of its length in edits (hook names are
    /// long, and a misspelling such as `show_merchandize` is four edits from its hook).
    static func resembledHook(_ key: String, in hooks: [String]) -> String? {
        let allowed = max(2, key.count / 3)
        let scored = hooks.map { ($0, NearestName.editDistance(key.lowercased(), $0)) }.filter { $0.1 <= allowed }
        return scored.min { $0.1 < $1.1 }?.0
    }
}

extension PolicyInstance {
    /// The lint of this instance's policy table.
    func lint() -> PolicyLint {
        var keys = Set<String>()
        var declared: [String] = []
        state.withStack { stack in
            stack.push(policyTableReference)
            stack.forEachPair(of: stack.top) { key, value in
                guard stack.type(at: key) == .string, let name = stack.string(at: key) else { return }
                keys.insert(name)
                guard name == PolicyLint.customHooksKey, stack.type(at: value) == .table else { return }
                stack.forEachPair(of: value) { _, item in
                    if stack.type(at: item) == .string, let declaredName = stack.string(at: item) { declared.append(declaredName) }
                }
            }
        }
        return PolicyLint(keys: keys, functions: Set(definedHooks), declaredCustom: declared)
    }
}
