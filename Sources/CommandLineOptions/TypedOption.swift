/// An option declared once with how its text is read: the ``CommandOption`` the parser and
/// the help take, and the reading that turns the text given into a value or a usage error.
/// Commands read values through it (``ParsedArguments/value(of:)``), never by the option's
/// name as a string.
public struct TypedOption<Value>: Sendable {
    /// The declaration the parser and the help take.
    public let option: CommandOption
    private let reading: @Sendable (String) throws(UsageError) -> Value

    /// `--name VALUE`, read by `reading`.
    public static func value(_ name: String, _ valueName: String, help: String,
                             reading: @escaping @Sendable (String) throws(UsageError) -> Value) -> TypedOption {
        TypedOption(option: .value(name, valueName, help: help), reading: reading)
    }

    /// `--name VALUE`..., each read by `reading`.
    public static func repeatable(_ name: String, _ valueName: String, help: String,
                                  reading: @escaping @Sendable (String) throws(UsageError) -> Value) -> TypedOption {
        TypedOption(option: .repeatable(name, valueName, help: help), reading: reading)
    }

    /// The same option, read the same way, with the help a command gives it.
    public func withHelp(_ help: String) -> TypedOption {
        TypedOption(option: option.withHelp(help), reading: reading)
    }

    /// The value `text` gives.
    public func read(_ text: String) throws(UsageError) -> Value {
        try reading(text)
    }
}

extension TypedOption where Value == String {
    /// `--name VALUE`, taken as written.
    public static func text(_ name: String, _ valueName: String, help: String) -> TypedOption {
        .value(name, valueName, help: help) { $0 }
    }
}

extension TypedOption where Value == Int {
    /// `--name N`: a whole number within `range`.
    public static func count(_ name: String, _ valueName: String = "N", in range: ClosedRange<Int>, help: String) -> TypedOption {
        .value(name, valueName, help: help) { text throws(UsageError) in
            guard let value = Int(text), range.contains(value) else {
                throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return value
        }
    }
}

extension TypedOption where Value == Int {
    /// `--name N`: a whole number above zero.
    public static func positive(_ name: String, _ valueName: String = "N", help: String) -> TypedOption {
        .value(name, valueName, help: help) { text throws(UsageError) in
            guard let value = Int(text), value > 0 else { throw UsageError("--\(name) must be a positive integer, not '\(text)'") }
            return value
        }
    }
}

extension ParsedArguments {
    /// The value of `option`'s last occurrence, read; nil when it is not given.
    public func value<Value>(of option: TypedOption<Value>) throws(UsageError) -> Value? {
        try value(option.option.name).map { text throws(UsageError) in try option.read(text) }
    }

    /// The value of `option`, read; a usage error saying it is missing when it is not given.
    public func required<Value>(_ option: TypedOption<Value>) throws(UsageError) -> Value {
        guard let value = try value(of: option) else { throw UsageError("missing \(option.option.label)") }
        return value
    }

    /// Every value of `option`, read, in order.
    public func values<Value>(of option: TypedOption<Value>) throws(UsageError) -> [Value] {
        var read: [Value] = []
        for text in values(option.option.name) {
            read.append(try option.read(text))
        }
        return read
    }
}
