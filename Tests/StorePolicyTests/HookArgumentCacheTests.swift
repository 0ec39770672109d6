import Foundation
import LuaBridge
import Testing
@testable import StorePolicy

/// The arguments `diff`'s scenarios share are decoded once per list, not once per request.
@Suite struct HookArgumentCacheTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anArgumentIsDecodedOnceForEveryRequestThatSharesTheCache() throws {
        let cache = HookArgumentCache()
        var decodings = 0
        for _ in 0..<3 {
            let value = try cache.value(String.self, at: 0, now: now) { () throws(PolicyError) -> String in
                decodings += 1
                return "pass.monthly"
            }
            #expect(value == "pass.monthly")
        }
        #expect(decodings == 1)
    }

    @Test func anotherIndexTypeOrMomentIsDecodedOnItsOwn() throws {
        let cache = HookArgumentCache()
        var decodings = 0
        let decode = { () throws(PolicyError) -> Int in
            decodings += 1
            return decodings
        }
        #expect(try cache.value(Int.self, at: 0, now: now, decode: decode) == 1)
        #expect(try cache.value(Int.self, at: 1, now: now, decode: decode) == 2)
        #expect(try cache.value(Int.self, at: 0, now: now.addingTimeInterval(1), decode: decode) == 3)
        #expect(try cache.value(Int64.self, at: 0, now: now) { () throws(PolicyError) -> Int64 in 40 } == 40)
        #expect(try cache.value(Int.self, at: 0, now: now, decode: decode) == 1)
    }

    @Test func aFailedDecodingIsNotKeptSoEachRequestIsRefusedAlike() {
        let cache = HookArgumentCache()
        var decodings = 0
        for _ in 0..<2 {
            #expect(throws: PolicyError.self) {
                try cache.value(String.self, at: 0, now: now) { () throws(PolicyError) -> String in
                    decodings += 1
                    throw PolicyError(kind: .badRequest, hook: "consumption", reason: "argument 2 is not a refund request")
                }
            }
        }
        #expect(decodings == 2)
    }

    @Test func requestsSharingACacheDecideAsRequestsThatDecodeTheirOwn() throws {
        let engine = try makeEngine("""
            return { grant = function(ctx, transaction, product)
              return { { item = transaction.product_id, amount = transaction.quantity } }
            end }
            """)
        let transaction = LuaValue.table(LuaTable(hash: [
            .string("transactionId"): .string("1"), .string("originalTransactionId"): .string("1"),
            .string("productId"): .string("pellets.box"), .string("quantity"): .integer(2),
            .string("purchaseDate"): .integer(1_800_000_000_000), .string("type"): .string("Consumable"),
        ]))
        let cache = HookArgumentCache()
        for _ in 0..<2 {
            let shared = HookRequest(hook: "grant", context: PolicyContext(customer: CustomerContext()), arguments: [transaction],
                                     argumentCache: cache)
            let alone = HookRequest(hook: "grant", arguments: [transaction])
            #expect(try shared.evaluate(with: engine).result == alone.evaluate(with: engine).result)
        }
    }
}
