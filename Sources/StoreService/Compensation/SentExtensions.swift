import StoreCore
import StorePolicy

/// The renewal extensions a ledger records as sent for one incident, found by subscriber: a
/// subscription is covered by its own request, or by its product's mass extension.
struct SentExtensions {
    private let own: [String: RenewalExtensionRecord]
    private let mass: [String: RenewalExtensionRecord]

    /// The records among `records` that were sent under one of `keys` (the incident's key, and
    /// any key earlier versions recorded the same incident under).
    init(_ records: [RenewalExtensionRecord], keys: Set<String>) {
        let sent = records.filter { $0.state == .sent && keys.contains($0.incidentDigest) }
        own = Dictionary(sent.compactMap { record in record.originalTransactionID.map { ($0, record) } }, uniquingKeysWith: { first, _ in first })
        mass = Dictionary(sent.filter { $0.originalTransactionID == nil }.map { ($0.productID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The record of the request that extended `subscription` for the incident, or nil when none did.
    func covering(_ subscription: RenewalSubscription) -> RenewalExtensionRecord? {
        own[subscription.originalTransactionID] ?? mass[subscription.productID]
    }
}
