/// One option a command takes, declared once: the parser's tables and the help's
/// "Options:" lines both come from it.
public struct CommandOption: Sendable, Hashable {
    /// How an option is given on the command line.
    public enum Kind: Sendable, Hashable {
        /// `--name`, with no value.
        case flag
        /// `--name VALUE` or `--name=VALUE`; given twice, the last value counts.
        case single
        /// `--name VALUE`, any number of times; every value counts, in order.
        case repeatable
    }

    /// The name without its leading `--`.
    public let name: String
    /// What the value is, as help shows it (`FILE`, `N`); empty for a flag.
    public let valueName: String
    /// What the option does, in one or more sentences; help wraps it.
    public let help: String
    /// Whether the option takes a value, and how many times.
    public let kind: Kind

    /// A flag: `--name`.
    public static func flag(_ name: String, help: String) -> CommandOption {
        CommandOption(name: name, valueName: "", help: help, kind: .flag)
    }

    /// An option with one value: `--name VALUE`.
    public static func value(_ name: String, _ valueName: String, help: String) -> CommandOption {
        CommandOption(name: name, valueName: valueName, help: help, kind: .single)
    }

    /// An option that may repeat: `--name VALUE`...
    public static func repeatable(_ name: String, _ valueName: String, help: String) -> CommandOption {
        CommandOption(name: name, valueName: valueName, help: help, kind: .repeatable)
    }

    /// The same option, with the help a command gives it.
    public func withHelp(_ help: String) -> CommandOption {
        CommandOption(name: name, valueName: valueName, help: help, kind: kind)
    }

    /// `--name` or `--name VALUE`, as help and usage lines write it.
    public var label: String {
        valueName.isEmpty ? "--" + name : "--\(name) \(valueName)"
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { kind != .flag }
}
