import Foundation
import PostgresLedger
import ServiceCommandLine
import SQLiteLedger
import StoreCore

/// An index as a database describes it: whether it is unique, its columns and the rows it
/// keeps (empty when it keeps every row).
struct LedgerIndexShape: Equatable, CustomStringConvertible {
    var isUnique: Bool
    var columns: String
    var condition = ""

    var description: String { (isUnique ? "unique " : "") + "(\(columns))" + (condition.isEmpty ? "" : " where \(condition)") }
}

extension LedgerLocation {
    /// The indexes among `names` the database here holds, by name, as it describes them.
    func indexShapes(named names: [String]) throws -> [String: LedgerIndexShape] {
        let definitions: [String]
        switch self {
        case .sqlite(let path):
            definitions = try Database(path: path).read { connection in
                try connection.fetchAll("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
                    .map { try $0.decode(String.self, at: 0) }
            }
        case .postgres(let url):
            definitions = try PostgresConnection(url: url).execute("SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()")
                .map { try $0.decode(String.self, at: 0) }
        }
        var indexes: [String: LedgerIndexShape] = [:]
        for definition in definitions {
            guard let match = definition.firstMatch(of: /^CREATE (UNIQUE )?INDEX (\w+) ON [^(]*\(([^)]*)\)(?: WHERE (.*))?$/),
                  names.contains(String(match.output.2)) else { continue }
            indexes[String(match.output.2)] = LedgerIndexShape(
                isUnique: match.output.1 != nil, columns: String(match.output.3), condition: match.output.4.map(String.init) ?? "")
        }
        return indexes
    }
}
