/// What ``Ledger/ingest(renewalInfo:jwsRepresentation:)`` did with one renewal info.
public enum RenewalInfoIngestResult: Hashable, Sendable {
    /// No renewal info was stored for the original transaction; this one now is.
    case inserted(StoredRenewalInfo)
    /// A newer version (by `signedDate`) replaced the stored one.
    case replaced(StoredRenewalInfo)
    /// The stored version is as new or newer; it is kept, and returned here.
    case kept(StoredRenewalInfo)
}
