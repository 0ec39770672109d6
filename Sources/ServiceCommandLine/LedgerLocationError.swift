/// Why a `--ledger` value is neither a SQLite file's path nor a PostgreSQL URL StoreRules
/// takes. Its text never holds a password the value carried.
public struct LedgerLocationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The mistake and how to write the location instead, in one line.
    public let description: String

    /// An error saying `description`, with any password in it masked.
    init(_ description: String) {
        self.description = LedgerLocation.maskingPasswords(in: description)
    }
}
