import Foundation
import LuaBridge
import StoreCore

extension PolicyEngine {
    /// The features the policy unlocks for `customerID` (the `features` hook), with the
    /// customer as the ledger knows them at `date`, in one call.
    ///
    /// The context's customer is ``CustomerContext/init(_:attributes:)`` of the ledger's
    /// state, with group levels the catalog does not give taken from the engine's catalog;
    /// its storefront and locale are the catalog's (USA and en_US without one).
    ///
    /// - Parameters:
    ///   - customerID: the customer.
    ///   - ledger: the ledger holding the customer's purchases.
    ///   - catalog: the products, for subscription groups and levels; optional.
    ///   - date: the moment of the decision; now by default.
    ///   - environment: where the purchase data comes from.
    ///   - attributes: the host's attributes of the customer (`ctx.customer.attributes`).
    ///   - traced: whether to trace the decision.
    /// - Throws: what ``StoreCore/Ledger/customerState(customerID:catalog:at:signedData:)`` throws. A
    ///   failing hook does not throw: the decision falls back to the entitled product ids.
    public func features(
        forCustomer customerID: String, ledger: Ledger, catalog: Catalog? = nil, at date: Date = Date(),
        environment: PolicyContext.Environment = .xcode, attributes: [String: LuaValue] = [:], traced: Bool = false
    ) throws -> Decision<[String]> {
        var customer = try CustomerContext(customerID: customerID, ledger: ledger, catalog: catalog, at: date, attributes: attributes)
        customer.fillMissingGroupLevels(from: self.catalog)
        let context = PolicyContext(
            now: date, storefront: catalog?.storefront.countryCode ?? "USA", locale: catalog?.localeIdentifier ?? "en_US",
            environment: environment, customer: customer)
        return features(context, traced: traced)
    }

    /// The ledger's decision closure backed by the policy's `grant` hook, for
    /// ``StoreCore/Ledger/ingest(transaction:jwsRepresentation:customerID:decide:)`` and
    /// ``StoreCore/Ledger/retryUnfinished(customerID:decide:)``.
    ///
    /// ```swift
    /// try ledger.ingest(transaction: payload, jwsRepresentation: jws, customerID: "ada",
    ///                   decide: engine.grantDecision(for: ledger, catalog: catalog))
    /// ```
    ///
    /// For each stored transaction the closure:
    /// 1. decodes the transaction payload from the stored JWS, verified when it was ingested,
    ///    so the hook sees every field Apple signed (price, storefront, offer …), and checks
    ///    that it is the stored transaction (``LedgerGrantError``);
    /// 2. builds `ctx` at `clock()`: the customer as the ledger knows them at that moment —
    ///    the transaction itself included, which the ledger's reads during a decision show as
    ///    stored — with the
    ///    attributes `attributes` gives for the customer, the transaction's storefront, the
    ///    catalog's locale (en_US without one) and the transaction's environment;
    /// 3. calls ``grant(_:transaction:product:traced:)`` for the transaction's product.
    ///
    /// Any failure throws, so the ledger keeps the transaction unfinished with the reason and
    /// grants it on a later retry; nothing is guessed.
    ///
    /// - Parameters:
    ///   - ledger: the ledger the closure reads the customer from (the one ingesting).
    ///   - catalog: the products, for subscription groups and levels; optional.
    ///   - attributes: the host's attributes of a customer, by customer id; none by default.
    ///   - clock: the time of a decision; the system clock by default (a test store passes
    ///     its own).
    public func grantDecision(
        for ledger: Ledger, catalog: Catalog? = nil,
        attributes: @escaping @Sendable (_ customerID: String) -> [String: LuaValue] = { _ in [:] },
        clock: @escaping @Sendable () -> Date = { Date() }
    ) -> @Sendable (StoredTransaction) throws -> [Grant] {
        { [self] transaction in
            let payload = try Self.signedPayload(of: transaction)
            let now = clock()
            var customer = try CustomerContext(
                customerID: transaction.customerID, ledger: ledger, catalog: catalog, at: now,
                attributes: attributes(transaction.customerID))
            customer.fillMissingGroupLevels(from: self.catalog)
            let context = PolicyContext(
                now: now, storefront: payload.storefront ?? catalog?.storefront.countryCode ?? "USA",
                locale: catalog?.localeIdentifier ?? "en_US", environment: PolicyContext.Environment(transaction.environment),
                customer: customer)
            let decision = try grant(context, transaction: payload, product: transaction.productID)
            // The variants the rule read are recorded before its grants are: a grant never
            // rests on a variant the ledger does not hold.
            guard try record(decision.exposures, in: ledger, at: now) else {
                throw LedgerGrantError.variantRecordedOtherwise(transactionID: transaction.id)
            }
            return decision.value
        }
    }

    /// The payload of a stored transaction's JWS, checked against the stored columns.
    static func signedPayload(of transaction: StoredTransaction) throws(LedgerGrantError) -> JWSTransactionDecodedPayload {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(parsing: transaction.jwsRepresentation)
        } catch {
            throw .unreadableTransaction(transactionID: transaction.id, reason: error.description)
        }
        let payload: JWSTransactionDecodedPayload
        do {
            payload = try jws.decodePayload(as: JWSTransactionDecodedPayload.self)
        } catch let error as DecodingError {
            throw .unreadableTransaction(transactionID: transaction.id, reason: Self.summary(of: error))
        } catch {
            throw .unreadableTransaction(transactionID: transaction.id, reason: "\(error)")
        }
        let checks: [(field: String, stored: String, signed: String?)] = [
            ("transactionId", transaction.id, payload.transactionId),
            ("productId", transaction.productID, payload.productId),
        ]
        for check in checks where check.signed != check.stored {
            throw .transactionMismatch(
                transactionID: transaction.id, field: check.field, stored: check.stored, signed: check.signed ?? "none")
        }
        return payload
    }

    /// A decoding error as one line: where, and what was wrong.
    private static func summary(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found), .dataCorrupted(let found):
            context = found
        @unknown default:
            return "\(error)"
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}
