import Foundation
@testable import PostgresLedger
import Testing
import TestPrerequisites

@Suite(.enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
struct PostgresResultReadingTests {
    @Test("integers of every width, their extremes, booleans, NULL and text read as the server wrote them")
    func valuesReadAsWritten() throws {
        let database = try PostgresTestDatabase()
        let connection = try PostgresConnection(url: database.url)
        let rows = try connection.execute("""
            SELECT CAST(-9223372036854775808 AS BIGINT) AS lowest, CAST(9223372036854775807 AS BIGINT) AS highest,
                   CAST(0 AS SMALLINT) AS zero, CAST(-42 AS INTEGER) AS negative, CAST(NULL AS BIGINT) AS missing,
                   true AS yes, false AS no, 'été -12' AS words, '' AS empty, CAST(7 AS NUMERIC) AS decimal
            """)
        let row = try #require(rows.first)
        #expect(try row.decode(Int64.self, column: "lowest") == .min)
        #expect(try row.decode(Int64.self, column: "highest") == .max)
        #expect(try row.decode(Int64.self, column: "zero") == 0)
        #expect(try row.decode(Int64.self, column: "negative") == -42)
        #expect(try row.decode(Int64?.self, column: "missing") == nil)
        #expect(try row.decode(Bool.self, column: "yes"))
        #expect(try !row.decode(Bool.self, column: "no"))
        #expect(try row.decode(String.self, column: "words") == "été -12")
        #expect(try row.decode(String.self, column: "empty") == "")
        #expect(try row.decode(String.self, column: "decimal") == "7")
    }
}

struct PostgresIntegerTextTests {
    @Test("an integer column's text is read without a string: a sign and digits, nothing past Int64")
    func integerText() {
        func read(_ text: String) -> Int64? {
            Array(text.utf8).withUnsafeBufferPointer { PostgresRow.integer(of: $0) }
        }
        #expect(read("0") == 0)
        #expect(read("-0") == 0)
        #expect(read("1234567890") == 1_234_567_890)
        #expect(read("-9223372036854775808") == .min)
        #expect(read("9223372036854775807") == .max)
        #expect(read("9223372036854775808") == nil)
        #expect(read("-9223372036854775809") == nil)
        #expect(read("") == nil)
        #expect(read("-") == nil)
        #expect(read("12a") == nil)
        #expect(read("+5") == nil)
        #expect(read(" 5") == nil)
    }
}
