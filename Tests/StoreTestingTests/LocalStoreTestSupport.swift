import Foundation
@testable import StoreCore
import SQLiteLedger
@testable import StoreTesting
import TestPrerequisites

/// A local store over a fresh ledger file and a fresh store state file, with a manual clock,
/// for the local store tests.
struct StoreHarness {
    /// 2025-01-31T00:00:00Z: a month end, so month arithmetic shows.
    static let start = Date(millisecondsSince1970: 1_738_281_600_000)
    static let bundleID = "com.example.store"

    /// The test catalog:
    /// - consumable `coins` (0.99); non-consumables `recipe.pro` (family-shareable) and
    ///   `skin.gold` (not shareable); non-renewing `season.pass`;
    /// - group `G1`: `pass.premium` (level 1, monthly, 9.99, one free week to start, and the
    ///   promotional offer `premium.promo`: 3 months at 4.99), `pass.premium.annual` (level 1,
    ///   yearly), `pass.family` and `pass.plus` (level 2, monthly), `pass.basic` (level 3,
    ///   monthly, not shareable, with the code offer "Free month" for new and expired customers);
    /// - group `W1`: `weekly.tips` (weekly).
    static let catalogJSON = #"""
    {
      "identifier": "LOCAL001",
      "nonRenewingSubscriptions": [
        {"displayPrice": "19.99", "familyShareable": false, "internalID": "N1",
         "localizations": [{"description": "A season", "displayName": "Season Pass", "locale": "en_US"}],
         "productID": "season.pass", "referenceName": "Season Pass", "type": "NonRenewingSubscription"}
      ],
      "products": [
        {"displayPrice": "0.99", "familyShareable": false, "internalID": "C1",
         "localizations": [{"description": "Coins", "displayName": "Coins", "locale": "en_US"}],
         "productID": "coins", "referenceName": "Coins", "type": "Consumable"},
        {"displayPrice": "4.99", "familyShareable": true, "internalID": "R1",
         "localizations": [{"description": "Recipes", "displayName": "Pro Recipes", "locale": "en_US"}],
         "productID": "recipe.pro", "referenceName": "Pro Recipes", "type": "NonConsumable"},
        {"displayPrice": "1.99", "familyShareable": false, "internalID": "S1",
         "localizations": [{"description": "Skin", "displayName": "Gold Skin", "locale": "en_US"}],
         "productID": "skin.gold", "referenceName": "Gold Skin", "type": "NonConsumable"}
      ],
      "settings": {"_storefront": "USA", "_locale": "en_US", "_timeRate": 0},
      "subscriptionGroups": [
        {"id": "G1", "localizations": [], "name": "Pass", "subscriptions": [
          {"adHocOffers": [{"displayPrice": "4.99", "internalID": "P1", "numberOfPeriods": 3,
                            "offerID": "premium.promo", "paymentMode": "payAsYouGo",
                            "referenceName": "Three months at 4.99", "subscriptionPeriod": "P1M"}],
           "codeOffers": [], "displayPrice": "9.99", "familyShareable": true, "groupNumber": 1,
           "internalID": "A1",
           "introductoryOffer": {"internalID": "I1", "paymentMode": "free", "subscriptionPeriod": "P1W"},
           "localizations": [{"description": "", "displayName": "Premium", "locale": "en_US"}],
           "productID": "pass.premium", "recurringSubscriptionPeriod": "P1M", "referenceName": "Premium",
           "subscriptionGroupID": "G1", "type": "RecurringSubscription"},
          {"displayPrice": "99.99", "familyShareable": true, "groupNumber": 1, "internalID": "A2",
           "localizations": [{"description": "", "displayName": "Premium Annual", "locale": "en_US"}],
           "productID": "pass.premium.annual", "recurringSubscriptionPeriod": "P1Y",
           "referenceName": "Premium Annual", "subscriptionGroupID": "G1", "type": "RecurringSubscription"},
          {"displayPrice": "6.99", "familyShareable": true, "groupNumber": 2, "internalID": "A3",
           "localizations": [{"description": "", "displayName": "Family", "locale": "en_US"}],
           "productID": "pass.family", "recurringSubscriptionPeriod": "P1M", "referenceName": "Family",
           "subscriptionGroupID": "G1", "type": "RecurringSubscription"},
          {"displayPrice": "6.49", "familyShareable": true, "groupNumber": 2, "internalID": "A4",
           "localizations": [{"description": "", "displayName": "Plus", "locale": "en_US"}],
           "productID": "pass.plus", "recurringSubscriptionPeriod": "P1M", "referenceName": "Plus",
           "subscriptionGroupID": "G1", "type": "RecurringSubscription"},
          {"codeOffers": [{"eligibility": ["new", "expired"], "internalID": "K1", "isStackable": false,
                           "paymentMode": "free", "referenceName": "Free month", "subscriptionPeriod": "P1M"}],
           "displayPrice": "2.99", "familyShareable": false, "groupNumber": 3, "internalID": "A5",
           "localizations": [{"description": "", "displayName": "Basic", "locale": "en_US"}],
           "productID": "pass.basic", "recurringSubscriptionPeriod": "P1M", "referenceName": "Basic",
           "subscriptionGroupID": "G1", "type": "RecurringSubscription"}
        ]},
        {"id": "W1", "localizations": [], "name": "Tips", "subscriptions": [
          {"displayPrice": "0.99", "familyShareable": false, "groupNumber": 1, "internalID": "W1A",
           "localizations": [{"description": "", "displayName": "Weekly Tips", "locale": "en_US"}],
           "productID": "weekly.tips", "recurringSubscriptionPeriod": "P1W", "referenceName": "Weekly Tips",
           "subscriptionGroupID": "W1", "type": "RecurringSubscription"}
        ]}
      ],
      "version": {"major": 3, "minor": 0}
    }
    """#

    static func catalog(settings: String? = nil, premiumWinBackOffers: String? = nil) throws -> Catalog {
        var json = catalogJSON
        if let premiumWinBackOffers {
            json = json.replacingOccurrences(of: #""productID": "pass.premium", "recurringSubscriptionPeriod": "P1M","#,
                                             with: #""productID": "pass.premium", "recurringSubscriptionPeriod": "P1M", "winbackOffers": \#(premiumWinBackOffers),"#)
        }
        if let settings {
            json = json.replacingOccurrences(of: #""settings": {"_storefront": "USA", "_locale": "en_US", "_timeRate": 0}"#,
                                             with: #""settings": \#(settings)"#)
        }
        return try Catalog(data: Data(json.utf8), fileName: "Products.storekit")
    }

    /// The grants of the tests: ten coins per consumable bought, a star per subscription
    /// transaction (purchases and renewals), nothing otherwise.
    @Sendable static func grants(_ transaction: StoredTransaction) -> [Grant] {
        switch transaction.productType {
        case .consumable: [Grant(item: "coin", amount: 10 * transaction.purchasedQuantity)]
        case .autoRenewableSubscription: [Grant(item: "star", amount: 1)]
        default: []
        }
    }

    /// One signing authority for the whole test run: generating keys is cheap, but not free.
    static let authority: SigningAuthority = {
        do {
            return try SigningAuthority.generate()
        } catch {
            fatalError("cannot generate the test signing authority: \(error)")
        }
    }()

    let directory: URL
    let ledger: Ledger
    let store: LocalStore

    /// The ledger's SQLite database, which these tests always keep in SQLite.
    var ledgerDatabase: Database {
        get throws {
            guard let database = ledger.sqliteDatabase else { throw LedgerNotInSQLite() }
            return database
        }
    }

    /// The ledger is kept in another storage than SQLite.
    struct LedgerNotInSQLite: Error {}

    /// A harness whose catalog has `settings`, and `premiumWinBackOffers` (JSON) as the
    /// win-back offers of `pass.premium`.
    init(settings: String? = nil, premiumWinBackOffers: String? = nil, clock: StoreClock = .manual(startingAt: start),
         configure: (inout LocalStore.Configuration) -> Void = { _ in }) throws {
        directory = try TestFolders.make("local-store")
        ledger = try Ledger(path: directory.appendingPathComponent("ledger.sqlite").path)
        var configuration = LocalStore.Configuration(bundleID: Self.bundleID, clock: clock)
        configure(&configuration)
        store = try LocalStore(catalog: try Self.catalog(settings: settings, premiumWinBackOffers: premiumWinBackOffers), authority: Self.authority,
                               ledger: ledger, state: try Database(path: directory.appendingPathComponent("store.sqlite").path),
                               configuration: configuration, decide: Self.grants)
    }

    /// The path of the ledger file.
    var ledgerPath: String { directory.appendingPathComponent("ledger.sqlite").path }

    /// The path of the store state file.
    var statePath: String { directory.appendingPathComponent("store.sqlite").path }

    /// Another store over the same ledger and store state files, as another process would open them.
    func reopened(clock: StoreClock = .manual(startingAt: start)) throws -> (Ledger, LocalStore) {
        let ledger = try Ledger(path: ledgerPath)
        let store = try LocalStore(catalog: store.catalog, authority: store.authority, ledger: ledger,
                                   state: try Database(path: statePath),
                                   configuration: LocalStore.Configuration(bundleID: Self.bundleID, clock: clock),
                                   decide: Self.grants)
        return (ledger, store)
    }

    /// Buys and returns the verified transaction, failing the test on any other result.
    @discardableResult
    func buy(_ productID: String, _ customer: String = "ana", options: Set<PurchaseOption> = []) throws -> JWSTransactionDecodedPayload {
        guard case .success(let transaction) = try store.purchase(productID, customer: customer, options: options) else {
            throw HarnessFailure("the purchase of \(productID) did not succeed")
        }
        return transaction.payload
    }

    /// The types and subtypes of the notifications after `sequence`, as `TYPE` or `TYPE/SUBTYPE`.
    func sent(after sequence: Int = 0, customer: String? = nil) throws -> [String] {
        try store.notifications(customerID: customer, after: sequence).map(\.summary)
    }

    /// The last notification sequence.
    func lastSequence() throws -> Int {
        try store.notifications().last?.sequence ?? 0
    }

    /// The ledger's transactions of a customer, oldest purchase first.
    func ledgerTransactions(_ customer: String = "ana") throws -> [StoredTransaction] {
        try ledger.transactions(customerID: customer)
    }

    /// A count of what the store and the ledger hold, to show a refused request changed nothing.
    func footprint() throws -> [Int] {
        func counts(_ tables: [String], in database: Database) throws -> [Int] {
            try database.read { connection in
                try tables.map { try connection.fetchValue(Int.self, "SELECT count(*) FROM \($0)") ?? 0 }
            }
        }
        return try counts(["local_store_transaction", "local_store_subscription", "local_store_notification",
                           "local_store_delivery", "local_store_ask_to_buy", "local_store_family_member"],
                          in: store.state)
            + counts(["store_transaction", "renewal_info", "transaction_grant"], in: try ledgerDatabase)
    }

    static func duration(_ text: String) -> StoreDuration {
        StoreDuration(iso8601: text)!
    }

    static func date(_ iso8601: String) -> Date {
        try! Date(iso8601, strategy: .iso8601)
    }
}

/// A harness step that did not go as the test expected.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension StoreNotification {
    /// `TYPE` or `TYPE/SUBTYPE`.
    var summary: String {
        [notificationType?.rawValue, subtype?.rawValue].compactMap { $0 }.joined(separator: "/")
    }

    /// The transaction the notification carries, decoded.
    var transaction: JWSTransactionDecodedPayload? {
        payload.data?.signedTransactionInfo.flatMap {
            try? CompactJWS(parsing: $0).decodePayload(as: JWSTransactionDecodedPayload.self)
        }
    }

    /// The renewal info the notification carries, decoded.
    var renewalInfo: JWSRenewalInfoDecodedPayload? {
        payload.data?.signedRenewalInfo.flatMap {
            try? CompactJWS(parsing: $0).decodePayload(as: JWSRenewalInfoDecodedPayload.self)
        }
    }
}
