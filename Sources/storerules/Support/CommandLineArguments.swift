/// A command's arguments, split into positionals, options with values, and flags.
///
/// Options are `--name value` or `--name=value` and may repeat; flags are `--name`.
/// `-` alone is a positional (it means standard input where a file is expected).
struct CommandLineArguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Splits `arguments` for a command that takes the options `options` and flags `flags`.
    init(_ arguments: [String], options: Set<String> = [], flags: Set<String> = []) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals.append(contentsOf: remaining)
                break
            }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                if argument.hasPrefix("-"), argument != "-" {
                    throw UsageError("unknown option '\(argument)'")
                }
                positionals.append(argument)
                continue
            }
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            if options.contains(name) {
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError("option '--\(name)' needs a value")
                }
                values[name, default: []].append(value)
            } else if flags.contains(name), inlineValue == nil {
                self.flags.insert(name)
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }

    /// The last value of option `name`, if given.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of option `name`, in order.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The positional at `index`, or a usage error naming `what` is missing.
    func positional(_ index: Int, _ what: String) throws(UsageError) -> String {
        guard index < positionals.count else { throw UsageError("missing \(what)") }
        return positionals[index]
    }

    /// Fails when more than `count` positionals were given.
    func expectPositionals(atMost count: Int) throws(UsageError) {
        if positionals.count > count {
            throw UsageError("unexpected argument '\(positionals[count])'")
        }
    }
}

/// A mistake in how a command was called; printed with a pointer to `--help`.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A failure while running a command; printed as one line.
struct CommandFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
