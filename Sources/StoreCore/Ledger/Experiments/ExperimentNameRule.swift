/// The rule every name an experiment's records hold follows — experiment, phase, variant,
/// policy version, hook and placement: 1 to ``maximumLength`` characters without control
/// characters.
public enum ExperimentNameRule {
    /// The most characters a name may have.
    public static let maximumLength = 100

    /// Refuses `name` unless it follows the rule; `field` says which name it is, as the error's
    /// text begins ("an exposure's variant").
    static func check(_ name: String, _ field: String) throws(LedgerError) {
        guard !name.isEmpty, name.count <= maximumLength, !name.containsControlCharacter else {
            throw .invalidExperiment("\(field) is 1 to \(maximumLength) characters without control characters, not \(String(reflecting: String(name.prefix(maximumLength)))))")
        }
    }
}
