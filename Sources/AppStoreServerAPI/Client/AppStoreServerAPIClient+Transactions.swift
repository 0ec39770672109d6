import Foundation
import StoreCore

extension AppStoreServerAPIClient {
    /// Get Transaction Info: one transaction, verified.
    public func transactionInfo(_ transactionID: String) async throws(AppStoreServerAPIError) -> VerifiedTransaction {
        let endpoint = AppStoreServerAPIEndpoint.transactionInfo(transactionID: transactionID)
        let answer = try await call(endpoint, answer: TransactionInfoResponse.self)
        guard let signed = answer.signedTransactionInfo else {
            throw .malformedResponse(endpoint: endpoint.name, reason: "it has no signedTransactionInfo")
        }
        return try verifiedTransaction(signed)
    }

    /// One page of Get Transaction History (v2 unless `version` is 1), its transactions verified.
    public func transactionHistoryPage(_ transactionID: String, query: TransactionHistoryQuery = TransactionHistoryQuery(),
                                       revision: String? = nil, version: Int = 2) async throws(AppStoreServerAPIError) -> TransactionHistoryPage {
        guard version == 1 || version == 2 else { throw .invalidArgument("transaction history has versions 1 and 2, not \(version)") }
        let endpoint = AppStoreServerAPIEndpoint.transactionHistory(version: version, transactionID: transactionID)
        let answer = try await call(endpoint, query: query.queryItems(revision: revision), answer: HistoryResponse.self)
        return TransactionHistoryPage(revision: answer.revision, hasMore: answer.hasMore ?? false,
                                      transactions: try verifiedTransactions(answer.signedTransactions))
    }

    /// Get Transaction History as a sequence of pages, each asked for with the revision of the
    /// one before, from `revision` (the first page when nil).
    public func transactionHistory(_ transactionID: String, query: TransactionHistoryQuery = TransactionHistoryQuery(),
                                   from revision: String? = nil, version: Int = 2) -> Pages<TransactionHistoryPage> {
        Pages(start: revision) { [self] revision throws(AppStoreServerAPIError) in
            let page = try await transactionHistoryPage(transactionID, query: query, revision: revision, version: version)
            return (page, page.hasMore ? page.revision : nil)
        }
    }

    /// One page of Get Refund History (v2), its transactions verified.
    public func refundHistoryPage(_ transactionID: String, revision: String? = nil) async throws(AppStoreServerAPIError) -> TransactionHistoryPage {
        let endpoint = AppStoreServerAPIEndpoint.refundHistory(transactionID: transactionID)
        let answer = try await call(endpoint, query: revision.map { [.init("revision", $0)] } ?? [], answer: RefundHistoryResponse.self)
        return TransactionHistoryPage(revision: answer.revision, hasMore: answer.hasMore ?? false,
                                      transactions: try verifiedTransactions(answer.signedTransactions))
    }

    /// Get Refund History as a sequence of pages.
    public func refundHistory(_ transactionID: String, from revision: String? = nil) -> Pages<TransactionHistoryPage> {
        Pages(start: revision) { [self] revision throws(AppStoreServerAPIError) in
            let page = try await refundHistoryPage(transactionID, revision: revision)
            return (page, page.hasMore ? page.revision : nil)
        }
    }

    /// Look Up Order ID: whether the order id is valid, and its transactions, verified.
    public func lookUpOrder(_ orderID: String) async throws(AppStoreServerAPIError) -> OrderLookup {
        let answer = try await call(.orderLookup(orderID: orderID), answer: OrderLookupResponse.self)
        return OrderLookup(isValid: answer.status == 0, transactions: try verifiedTransactions(answer.signedTransactions))
    }

    /// Set App Account Token: attaches `token` (a UUID) to a purchase; later signed data carries it.
    public func setAppAccountToken(_ token: UUID, originalTransactionID: String) async throws(AppStoreServerAPIError) {
        _ = try await send(.setAppAccountToken(originalTransactionID: originalTransactionID),
                           body: UpdateAppAccountTokenRequest(appAccountToken: token.uuidString.lowercased()))
    }

    /// Get App Transaction Info: the customer's app transaction, verified.
    public func appTransactionInfo(_ transactionID: String) async throws(AppStoreServerAPIError)
        -> VerifiedSignedData<JWSAppTransactionDecodedPayload> {
        let endpoint = AppStoreServerAPIEndpoint.appTransactionInfo(transactionID: transactionID)
        let answer = try await call(endpoint, answer: AppTransactionInfoResponse.self)
        guard let signed = answer.signedAppTransactionInfo else {
            throw .malformedResponse(endpoint: endpoint.name, reason: "it has no signedAppTransactionInfo")
        }
        do {
            return VerifiedSignedData(jwsRepresentation: signed, payload: try verifier.verifyAndDecodeAppTransaction(signed))
        } catch {
            throw .verification(error)
        }
    }
}
