import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import SQLiteLedger
import Testing

/// App account tokens are UUIDs, stored and compared in canonical lower case on every storage,
/// and ledgers that stored them as given are migrated.
@Suite struct LedgerAppAccountTokenTests {
    typealias Payloads = LedgerPayloads

    static let upper = "F1A4F0F3-5C2B-4B6E-9D1A-0C8E2F4A6B7D"
    static let lower = upper.lowercased()

    @Test("a customer registered with an upper-case token receives the notification the App Store signs in lower case",
          arguments: LedgerBackend.available)
    func upperCaseRegistrationMatchesLowerCaseNotification(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let customer = try ledger.registerCustomer(id: "ana", appAccountToken: Self.upper)
        #expect(customer.appAccountToken == Self.lower)
        let box = Payloads.transaction(id: "5100", appAccountToken: Self.lower)
        let delivery = Payloads.Delivery(uuid: "n-5100", customerID: "unused", transaction: box, renewalInfo: nil)
        let result = try ledger.ingest(notification: delivery.notification, transaction: box, renewalInfo: nil, decide: Payloads.grants)
        guard case .processed(let ingested?, nil) = result else {
            Issue.record("expected the notification processed for ana, got \(result)")
            return
        }
        #expect(ingested.transaction.customerID == "ana")
        #expect(try ledger.pendingNotifications().isEmpty)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
    }

    @Test("a token in another case is the same token: a second customer cannot claim it, the owner may repeat it",
          arguments: LedgerBackend.available)
    func caseVariantsAreOneToken(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        try ledger.registerCustomer(id: "ana", appAccountToken: Self.lower)
        #expect(throws: LedgerError.appAccountTokenInUse(token: Self.lower, customerID: "ana")) {
            try ledger.registerCustomer(id: "bo", appAccountToken: Self.upper)
        }
        #expect(try ledger.customer(id: "bo") == nil)
        #expect(try ledger.registerCustomer(id: "ana", appAccountToken: Self.upper).appAccountToken == Self.lower)
    }

    @Test("a token that is not a UUID is refused and records nothing", arguments: LedgerBackend.available)
    func nonUUIDTokenIsRefused(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        for token in ["", "not-a-uuid", Self.lower + " ", "{\(Self.lower)}"] {
            #expect(throws: LedgerError.invalidAppAccountToken(token)) {
                try ledger.registerCustomer(id: "ana", appAccountToken: token)
            }
        }
        #expect(try ledger.customers().isEmpty)
    }

    @Test("customer ids break the rule: empty, over 128 bytes, or holding a control character",
          arguments: LedgerBackend.available)
    func customerIDRule(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        for id in ["", String(repeating: "é", count: 65), "carol\u{0}attacker", "tab\there", "c1\u{85}"] {
            #expect(throws: LedgerError.self) { try ledger.registerCustomer(id: id) }
            #expect(throws: LedgerError.self) { try ledger.customerState(customerID: id) }
            #expect(throws: LedgerError.self) { try ledger.recordEvent(customerID: id, name: "paywall_shown") }
        }
        #expect(try ledger.customers().isEmpty)
        let longest = String(repeating: "é", count: 64)
        #expect(try ledger.registerCustomer(id: longest).id == longest)
        #expect(try ledger.registerCustomer(id: "ünïcødé ok").id == "ünïcødé ok")
    }

    @Test("a ledger that stored tokens as given is migrated: canonical tokens, a kept notification processed, a case-only duplicate reported",
          arguments: LedgerBackend.available)
    func migrationCanonicalisesTokens(on backend: LedgerBackend) throws {
        let location = try backend.freshLocation()
        var ledger = try location.open()
        let box = Payloads.transaction(id: "5200", appAccountToken: Self.lower)
        let delivery = Payloads.Delivery(uuid: "n-5200", customerID: "unused", transaction: box, renewalInfo: nil)
        guard case .pending = try ledger.ingest(notification: delivery.notification, transaction: box, renewalInfo: nil,
                                                 decide: Payloads.grants) else {
            Issue.record("expected the notification kept while no customer has its token")
            return
        }
        let twin = "0A1B2C3D-0000-4000-8000-00000000ABCD"
        try Self.asStoredByAnEarlierVersion(location, customers: [("ana", Self.upper), ("cy", twin), ("di", twin.lowercased())])
        ledger = try location.open()
        #expect(try ledger.customer(id: "ana")?.appAccountToken == Self.lower)
        #expect(try ledger.customer(id: "cy")?.appAccountToken == twin)
        #expect(try ledger.customer(id: "di")?.appAccountToken == twin.lowercased())
        let violations = try ledger.checkInvariants()
        #expect(violations.contains { $0.contains("customers cy, di have the same app account token") }, "\(violations)")
        #expect(violations.contains { $0.contains("customer cy has app account token \(twin), not in canonical form") })
        #expect(try ledger.resolvePendingNotifications(decide: Payloads.grants).count == 1)
        #expect(try ledger.balances(customerID: "ana") == ["pellet": 5])
    }

    /// Writes `customers` with their tokens verbatim, and takes the ledger back to before the
    /// token migration (the tables of the migrations after it dropped, the others finding
    /// nothing to do when they run again), as a ledger of an earlier version was.
    static func asStoredByAnEarlierVersion(_ location: LedgerLocation, customers: [(String, String)]) throws {
        switch location {
        case .sqlite(let path):
            try Database(path: path).write { connection in
                for (id, token) in customers {
                    try connection.execute("INSERT INTO customer (id, app_account_token, created_date) VALUES (?, ?, 0)", [id, token])
                }
            }
        case .postgres(let url):
            let connection = try PostgresConnection(url: url)
            for (id, token) in customers {
                try connection.execute("INSERT INTO customer (id, app_account_token, created_date) VALUES ($1, $2, 0)",
                                       [.text(id), .text(token)])
            }
        }
        let laterTables = ["notification_conflict", "reconciliation_mark", "consumption_request", "renewal_extension",
                           "experiment_exposure", "experiment_phase", "outgoing_event", "outgoing_event_state"]
        try location.takeBack(toBefore: "canonicalise app account tokens", undoing: laterTables.map { "DROP TABLE \($0)" })
    }
}
