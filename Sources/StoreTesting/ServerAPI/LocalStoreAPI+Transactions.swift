import AppStoreServerAPI
import Foundation
import StoreCore

extension LocalStoreAPI {
    /// A page of the customer's transactions, filtered and sorted as asked, after the revision.
    func transactionHistory(_ transactionID: String, query: QueryArguments) throws -> HistoryResponse {
        let owner = try store.apiTransaction(transactionID)
        let start = try query.milliseconds("startDate", invalid: .invalidStartDate)
        let end = try query.milliseconds("endDate", invalid: .invalidEndDate)
        if let start, let end, start > end {
            throw ServerAPIFailure.badRequest(.startDateAfterEndDate, "startDate is after endDate")
        }
        let types = query.values("productType")
        for type in types where !TransactionHistoryQuery.productTypeNames.contains(type) {
            throw ServerAPIFailure.badRequest(.invalidProductType, "productType \(type) is not one of \(TransactionHistoryQuery.productTypeNames.joined(separator: ", "))")
        }
        let sortText = try query.single("sort", invalid: .invalidSort)
        guard sortText == nil || TransactionHistoryQuery.Sort(rawValue: sortText!) != nil else {
            throw ServerAPIFailure.badRequest(.invalidSort, "sort is ASCENDING or DESCENDING, not \(sortText!)")
        }
        let descending = sortText == TransactionHistoryQuery.Sort.descending.rawValue
        let ownership = try query.single("inAppOwnershipType", invalid: .invalidInAppOwnershipType)
        guard ownership == nil || ownership == "PURCHASED" || ownership == "FAMILY_SHARED" else {
            throw ServerAPIFailure.badRequest(.invalidInAppOwnershipType, "inAppOwnershipType is PURCHASED or FAMILY_SHARED, not \(ownership!)")
        }
        let revoked = try query.boolean("revoked", invalid: .invalidRevoked)
        let products = Set(query.values("productId"))
        let groups = Set(query.values("subscriptionGroupIdentifier"))
        let position = try Self.position(query)

        var transactions = try store.apiTransactions(customerID: owner.record.customerID).filter { transaction in
            let record = transaction.record
            let purchased = record.purchaseDate.millisecondsSince1970
            return (start.map { purchased >= $0 } ?? true) && (end.map { purchased < $0 } ?? true)
                && (products.isEmpty || products.contains(record.productID))
                && (types.isEmpty || types.contains(Self.typeName(record.productType)))
                && (groups.isEmpty || record.groupID.map(groups.contains) == true)
                && (ownership == nil || (ownership == "FAMILY_SHARED") == (record.sharedFrom != nil))
                && (revoked == nil || revoked == (record.revocationDate != nil))
        }
        if descending { transactions.reverse() }
        if let position {
            transactions = transactions.filter { transaction in
                let key = (transaction.changed, transaction.record.id)
                return descending ? key < position : key > position
            }
        }
        let page = Array(transactions.prefix(Self.pageSize))
        return HistoryResponse(
            revision: Self.revision(after: page.last, or: position), hasMore: transactions.count > page.count,
            bundleId: store.configuration.bundleID, appAppleId: store.configuration.appAppleID,
            environment: store.configuration.environment.rawValue, signedTransactions: page.map(\.record.jws))
    }

    /// A page of the customer's refunded or revoked transactions after the revision.
    func refundHistory(_ transactionID: String, query: QueryArguments) throws -> RefundHistoryResponse {
        let owner = try store.apiTransaction(transactionID)
        let position = try Self.position(query)
        let refunded = try store.apiTransactions(customerID: owner.record.customerID).filter { transaction in
            transaction.record.revocationDate != nil && position.map { (transaction.changed, transaction.record.id) > $0 } ?? true
        }
        let page = Array(refunded.prefix(Self.pageSize))
        return RefundHistoryResponse(signedTransactions: page.map(\.record.jws), revision: Self.revision(after: page.last, or: position),
                                     hasMore: refunded.count > page.count)
    }

    private static func position(_ query: QueryArguments) throws -> (Int64, String)? {
        guard let revision = try query.single("revision", invalid: .invalidRequestRevision) else { return nil }
        guard let position = PageToken.position(ofRevision: revision) else {
            throw ServerAPIFailure.badRequest(.invalidRequestRevision, "revision \(revision) is not one this API gave")
        }
        return (position.changed, position.transactionID)
    }

    private static func revision(after last: LocalStore.APITransaction?, or position: (Int64, String)?) -> String {
        if let last { return PageToken.revision(changed: last.changed, transactionID: last.record.id) }
        let (changed, id) = position ?? (0, "0")
        return PageToken.revision(changed: changed, transactionID: id)
    }

    static func typeName(_ type: ProductType) -> String {
        switch type {
        case .autoRenewable: "AUTO_RENEWABLE"
        case .nonRenewable: "NON_RENEWABLE"
        case .consumable: "CONSUMABLE"
        case .nonConsumable: "NON_CONSUMABLE"
        }
    }
}
