import Foundation
import StoreCore

/// The filters of Get Transaction History, each one Apple takes; the lists become repeated
/// query items.
public struct TransactionHistoryQuery: Sendable, Equatable {
    /// The order of the pages, by when each transaction last changed.
    public enum Sort: String, Sendable, CaseIterable {
        /// Oldest change first (Apple's default).
        case ascending = "ASCENDING"
        /// Newest change first.
        case descending = "DESCENDING"
    }

    /// Only transactions bought at or after this.
    public var startDate: Date?
    /// Only transactions bought before this.
    public var endDate: Date?
    /// Only these products.
    public var productIDs: [String]
    /// Only these product types: `AUTO_RENEWABLE`, `NON_RENEWABLE`, `CONSUMABLE`, `NON_CONSUMABLE`.
    public var productTypes: [String]
    /// The order of the pages.
    public var sort: Sort?
    /// Only these subscription groups.
    public var subscriptionGroupIdentifiers: [String]
    /// Only `PURCHASED` or only `FAMILY_SHARED` transactions.
    public var inAppOwnershipType: String?
    /// Only revoked (true) or only unrevoked (false) transactions.
    public var revoked: Bool?

    /// The product types Apple accepts.
    public static let productTypeNames = ["AUTO_RENEWABLE", "NON_RENEWABLE", "CONSUMABLE", "NON_CONSUMABLE"]

    /// A query; with no arguments, every transaction.
    public init(startDate: Date? = nil, endDate: Date? = nil, productIDs: [String] = [], productTypes: [String] = [], sort: Sort? = nil,
                subscriptionGroupIdentifiers: [String] = [], inAppOwnershipType: String? = nil, revoked: Bool? = nil) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIDs = productIDs
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// The query items, in Apple's order, with `revision` first when continuing.
    public func queryItems(revision: String?) -> [AppStoreServerAPIRequest.QueryItem] {
        var items: [AppStoreServerAPIRequest.QueryItem] = []
        if let revision { items.append(.init("revision", revision)) }
        if let startDate { items.append(.init("startDate", String(startDate.millisecondsSince1970))) }
        if let endDate { items.append(.init("endDate", String(endDate.millisecondsSince1970))) }
        items += productIDs.map { .init("productId", $0) }
        items += productTypes.map { .init("productType", $0) }
        if let sort { items.append(.init("sort", sort.rawValue)) }
        items += subscriptionGroupIdentifiers.map { .init("subscriptionGroupIdentifier", $0) }
        if let inAppOwnershipType { items.append(.init("inAppOwnershipType", inAppOwnershipType)) }
        if let revoked { items.append(.init("revoked", revoked ? "true" : "false")) }
        return items
    }
}
