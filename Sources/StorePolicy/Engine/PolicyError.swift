import LuaBridge

/// Why a policy could not be loaded, or why a hook's decision could not be used.
///
/// The description is one line naming the hook, the script and line, and the reason:
/// `grant (policy.lua:14): bad result: invalid grant (item: "pellet", amount: 0): the amount must be at least 1`.
public struct PolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The policy file could not be read.
        case unreadable
        /// The policy does not compile.
        case syntax
        /// The policy's top-level code failed, or it did not return a table of hooks.
        case invalidPolicy = "invalid_policy"
        /// A hook raised an error.
        case runtime
        /// A hook used up its instruction budget.
        case instructionBudget = "instruction_budget"
        /// A hook ran past its deadline.
        case deadline
        /// A hook needed more memory than its state may use.
        case memory
        /// A hook returned a value that breaks the contract.
        case badResult = "bad_result"
        /// The host asked for something that does not exist (an unknown hook, product or group).
        case badRequest = "bad_request"
    }

    /// What failed.
    public var kind: Kind
    /// The hook, when a hook failed.
    public var hook: String?
    /// The script, such as `policy.lua`.
    public var script: String?
    /// The line in the script, when known.
    public var line: Int?
    /// The reason, in words.
    public var reason: String
    /// The Lua traceback, when there was one.
    public var traceback: String?

    /// Creates an error.
    public init(kind: Kind, hook: String? = nil, script: String? = nil, line: Int? = nil, reason: String, traceback: String? = nil) {
        self.kind = kind
        self.hook = hook
        self.script = script
        self.line = line
        self.reason = reason
        self.traceback = traceback
    }

    /// An error from Lua, attributed to `hook` in `script`.
    package init(_ error: LuaError, hook: String?, script: String) {
        let kind: Kind
        switch error.kind {
        case .syntax: kind = .syntax
        case .runtime: kind = .runtime
        case .memory: kind = .memory
        case .instructionBudget: kind = .instructionBudget
        case .deadline: kind = .deadline
        case .badResult: kind = .badResult
        }
        self.init(kind: kind, hook: hook, script: error.chunkName ?? script, line: error.line,
                  reason: error.message, traceback: error.traceback)
    }

    /// `hook (script:line): kind: reason`, leaving out what is unknown.
    public var description: String {
        var location = script ?? ""
        if let line { location += ":\(line)" }
        var text = hook ?? ""
        if !location.isEmpty { text += text.isEmpty ? location : " (\(location))" }
        let what: String
        switch kind {
        case .unreadable: what = "cannot read policy"
        case .syntax: what = "syntax error"
        case .invalidPolicy: what = "invalid policy"
        case .runtime: what = "error"
        case .instructionBudget: what = "instruction budget exhausted"
        case .deadline: what = "deadline passed"
        case .memory: what = "memory limit"
        case .badResult: what = "bad result"
        case .badRequest: what = "bad request"
        }
        return text.isEmpty ? "\(what): \(reason)" : "\(text): \(what): \(reason)"
    }
}
