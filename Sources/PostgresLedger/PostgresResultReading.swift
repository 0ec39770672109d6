import CLibPQ

extension PostgresRow {
    /// The type OID of `smallint`.
    private static let int2: Oid = 21
    /// The type OID of `integer`.
    private static let int4: Oid = 23
    /// The type OID of `bigint`.
    private static let int8: Oid = 20
    /// The type OID of `boolean`.
    private static let bool: Oid = 16

    /// Copies every row of a `PGRES_TUPLES_OK` result, reading each column by its type OID:
    /// the integer types as ``PostgresValue/integer(_:)``, `bool` as ``PostgresValue/boolean(_:)``,
    /// anything else as its text form.
    static func rows(of result: OpaquePointer, sql: String) -> [PostgresRow] {
        let columns = 0..<PQnfields(result)
        let names = columns.map { String(cString: PQfname(result, $0)) }
        let types = columns.map { PQftype(result, $0) }
        return (0..<PQntuples(result)).map { row in
            let values = columns.map { column -> PostgresValue? in
                guard PQgetisnull(result, row, column) == 0 else { return nil }
                let text = String(cString: PQgetvalue(result, row, column))
                switch types[Int(column)] {
                case int2, int4, int8:
                    return Int64(text).map(PostgresValue.integer) ?? .text(text)
                case bool:
                    return .boolean(text == "t")
                default:
                    return .text(text)
                }
            }
            return PostgresRow(columnNames: names, values: values, sql: sql)
        }
    }
}
