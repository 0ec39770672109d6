import Foundation
import SQLiteLedger
import StoreCore
import StorePolicy
import StoreTesting
import TestPrerequisites

/// A SQLite ledger in a temporary folder holding an experiment's exposures and its customers'
/// signed transactions, for reports whose figures a test works out by hand.
struct ExperimentLedgerFixture {
    /// When every exposure of the fixture happens.
    static let start = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z
    static let day: TimeInterval = 86_400

    let folder: URL
    let ledger: Ledger
    let authority: SigningAuthority
    private var transactionNumber = 0

    init() throws {
        folder = try TestFolders.make("storerules-experiments")
        ledger = try Ledger(path: folder.appending(path: "ledger.sqlite").path)
        authority = try SigningAuthority.generate(name: "StoreRules Experiment Reports")
    }

    /// The ledger file's path.
    var ledgerPath: String { folder.appending(path: "ledger.sqlite").path }

    /// Records `customers` as exposed to `variant` of `declaration`'s phase `daysAfterStart`
    /// days after ``start``, by `policyVersion`.
    func expose(_ customers: [String], to variant: String, of declaration: ExperimentDeclaration, daysAfterStart: Double = 0,
                policyVersion: String = "v1") throws {
        let date = Self.start.addingTimeInterval(daysAfterStart * Self.day)
        let exposures = customers.map {
            ExperimentExposure(customerID: $0, experiment: declaration.name, phase: declaration.phase, variant: variant,
                               exposedDate: date, policyVersion: policyVersion, hook: "storefront", placement: "store")
        }
        try ledger.recordExposures(exposures, phases: [declaration.phaseRecord(at: date)])
    }

    /// A signed transaction of `customer` purchased `day` days after ``start``: a free trial
    /// (price 0) when `trial`, else one costing `price` (milli-units) in `currency`; of the
    /// subscription `original` when given (a consumable otherwise); revoked `revokedOnDay`
    /// days after ``start`` when given.
    mutating func purchase(_ customer: String, day: Double, price: Int64 = 0, currency: String = "USD", trial: Bool = false,
                           original: String? = nil, revokedOnDay: Double? = nil) throws {
        transactionNumber += 1
        let id = "\(customer)-\(transactionNumber)"
        let purchased = Self.start.addingTimeInterval(day * Self.day)
        let revoked = revokedOnDay.map { Self.start.addingTimeInterval($0 * Self.day) }
        var payload = JWSTransactionDecodedPayload(
            originalTransactionId: original ?? id, transactionId: id, bundleId: "com.example.backyardbirds",
            productId: original == nil ? "pellet.box" : "pass.premium", purchaseDate: purchased, originalPurchaseDate: purchased,
            quantity: 1, type: original == nil ? .consumable : .autoRenewableSubscription, inAppOwnershipType: .purchased,
            signedDate: revoked ?? purchased, revocationReason: revoked == nil ? nil : .refundedForOtherReason, revocationDate: revoked,
            environment: .sandbox, storefront: "USA", transactionReason: .purchase, currency: currency, price: price)
        if original != nil {
            payload.subscriptionGroupIdentifier = "6F3A93AB"
            payload.webOrderLineItemId = id
            payload.expiresDate = purchased.addingTimeInterval(30 * Self.day)
        }
        if trial {
            payload.offerType = .introductoryOffer
            payload.offerDiscountType = .freeTrial
        }
        try ledger.ingest(transaction: payload, jwsRepresentation: try authority.sign(payload), customerID: customer) { _ in [] }
    }

    /// Removes the temporary folder.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
