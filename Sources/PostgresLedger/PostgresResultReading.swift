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
        let indexes = PostgresRow.columnIndexes(of: names)
        return (0..<PQntuples(result)).map { row in
            let values = columns.map { column -> PostgresValue? in
                guard PQgetisnull(result, row, column) == 0, let start = PQgetvalue(result, row, column) else { return nil }
                let bytes = UnsafeRawBufferPointer(start: start, count: Int(PQgetlength(result, row, column))).bindMemory(to: UInt8.self)
                switch types[Int(column)] {
                case int2, int4, int8:
                    return integer(of: bytes).map(PostgresValue.integer) ?? .text(String(decoding: bytes, as: UTF8.self))
                case bool:
                    return .boolean(bytes.first == UInt8(ascii: "t"))
                default:
                    return .text(String(decoding: bytes, as: UTF8.self))
                }
            }
            return PostgresRow(columnNames: names, columnIndexes: indexes, values: values, sql: sql)
        }
    }

    /// The integer an integer column's text form writes (an optional `-` and decimal digits),
    /// read without making a string; nil for any other text or a value past `Int64`.
    static func integer(of text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var digits = text[...]
        let isNegative = digits.first == UInt8(ascii: "-")
        if isNegative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = isNegative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
        }
        return value
    }
}
