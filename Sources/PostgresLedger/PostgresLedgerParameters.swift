import Foundation
import StoreCore

/// The parameters of the ledger's statements on PostgreSQL, from optional fields.
enum PostgresLedgerParameters {
    /// An optional text parameter.
    static func text(_ value: String?) -> PostgresValue? { value.map(PostgresValue.text) }

    /// An optional integer parameter.
    static func integer(_ value: Int?) -> PostgresValue? { value.map { .integer(Int64($0)) } }

    /// An optional date parameter, as epoch milliseconds.
    static func milliseconds(_ date: Date?) -> PostgresValue? { date.map { .integer($0.millisecondsSince1970) } }
}
