import Foundation
import Testing
@testable import StoreCore

/// Bytes no Xcode writes: each `.storekit` text below ends in a ``CatalogError`` naming the
/// file (or, where JSON itself allows it, in one well-defined reading), never in a trap.
@Suite struct CatalogHostileInputTests {
    private func expectCatalogError(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: CatalogError.self, sourceLocation: sourceLocation) {
            try Catalog(data: data, fileName: "Products.storekit")
        }
        #expect(error?.fileName == "Products.storekit", sourceLocation: sourceLocation)
    }

    @Test("a document nested 100,000 deep is not JSON to the catalog, and nothing overflows the stack")
    func deepNestingIsRefused() {
        for open in ["[", #"{"products":"#] {
            expectCatalogError(Data(String(repeating: open, count: 100_000).utf8))
        }
        expectCatalogError(Data(CatalogJSON.document(extra: #""deep":"# + String(repeating: "[", count: 100_000)).utf8))
    }

    @Test("numbers beyond any integer or double in integer fields are refused with their path")
    func hugeNumbersAreRefused() {
        for number in ["99999999999999999999999", "1e400", "-1e400", "9007199254740993", "1.5"] {
            let json = CatalogJSON.document(groups: [#"{"id":"G1","localizations":[],"name":"Pass","subscriptions":[\#(CatalogJSON.subscription("pass").replacingOccurrences(of: #""groupNumber":1"#, with: #""groupNumber":\#(number)"#))]}"#])
            expectCatalogError(Data(json.utf8))
        }
    }

    @Test("invalid UTF-8, a byte-order mark inside, NUL bytes and every truncation are typed errors")
    func brokenTextIsRefused() {
        let valid = Data(CatalogJSON.document(products: [CatalogJSON.product("pellet")]).utf8)
        #expect(throws: Never.self) { try Catalog(data: valid, fileName: "Products.storekit") }
        var invalidUTF8 = valid
        invalidUTF8.insert(contentsOf: [0xC3, 0x28], at: valid.firstIndex(of: UInt8(ascii: "T"))!)
        expectCatalogError(invalidUTF8)
        expectCatalogError(Data([0x00, 0x00, 0x00]))
        for length in stride(from: 0, to: valid.count - 1, by: 7) {
            expectCatalogError(valid.prefix(length))
        }
    }

    @Test("a lone surrogate in a name is a catalog error; a repeated key reads as its last value, as Python's json does")
    func oddButWellFormedText() throws {
        let surrogate = CatalogJSON.document(products: [CatalogJSON.product(
            "pellet", localizations: #"[{"description":"x","displayName":"\ud800","locale":"en_US"}]"#)])
        expectCatalogError(Data(surrogate.utf8))
        let repeated = CatalogJSON.document(products: [CatalogJSON.product("pellet")])
            .replacingOccurrences(of: #""identifier":"ABCD1234","#, with: #""identifier":"ABCD1234","identifier":"EFGH5678","#)
        let catalog = try CatalogJSON.load(repeated)
        #expect(catalog.products.map(\.id) == ["pellet"])
        #expect(catalog.identifier == "EFGH5678")
    }
}
