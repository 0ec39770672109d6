import Foundation
import LuaBridge
import StoreCore
import StorePolicy

/// What a ``Service`` serves and trusts: its policy folder, its ledger and how signed data is
/// verified.
public struct ServiceConfiguration: Sendable {
    /// The policy folder: `policy.lua` and its `.storekit` catalog.
    public var folder: String
    /// The ledger: a SQLite file (``SQLiteLedgerFile``), or any storage an executable composes.
    public var ledger: any ServiceLedgerSource
    /// The roots signed data must chain to.
    public var rootCertificates: [X509Certificate]
    /// The app's bundle identifier.
    public var bundleId: String
    /// The environment signed data must come from.
    public var environment: AppStoreEnvironment
    /// The app's Apple ID, which production notifications must name.
    public var appAppleId: Int64?
    /// The policy to serve instead of the folder's `policy.lua` (a release from the ledger).
    public var policy: PolicySource?
    /// Where the catalog comes from: the folder's `.storekit` file by default.
    public var catalog: CatalogChoice = .folder
    /// Whether the policy follows the ledger's releases, so a reload from the folder is refused.
    public var followsLedgerReleases = false
    /// How many distinct merchandising event names one customer keeps.
    public var maximumEventNames = Ledger.defaultMaximumEventNames
    /// The host's attributes of a customer (`ctx.customer.attributes`) in the decisions the
    /// service makes from the ledger — grants, storefront plans, entitlements, features — by
    /// customer id; none by default. An embedder reads them from its own records: the call runs
    /// on the request's thread, with no storage transaction held, and may take its time.
    public var customerAttributes: @Sendable (_ customerID: String) -> [String: LuaValue] = { _ in [:] }
    /// The time the service decides at: the host's clock by default. A service whose ledger a
    /// local store feeds may follow the store's clock instead (`serve --store-clock`), so what
    /// the store's advanced clock lapsed or renewed shows through the service; never one Apple feeds.
    public var clock: @Sendable () -> Date = { Date() }
    /// Whether every change of a customer writes its outgoing events to the ledger's outbox
    /// (``OutgoingEventRecording``), for ``OutgoingEventDelivery`` to send; off by default. A
    /// service over a ledger that has recorded events records them whatever this says, so every
    /// writer of a fleet's ledger (and `storerules ledger ingest`) reports what it changes.
    public var recordsOutgoingEvents = false

    /// Where a service's catalog comes from.
    public enum CatalogChoice: Sendable {
        /// The policy folder's `.storekit` file, if it has one.
        case folder
        /// A `.storekit` file's name and text (a release's).
        case file(name: String, text: String)
        /// No catalog (a release made from a folder without one).
        case none
    }

    /// Creates a configuration.
    public init(folder: String, ledger: any ServiceLedgerSource, rootCertificates: [X509Certificate], bundleId: String,
                environment: AppStoreEnvironment, appAppleId: Int64? = nil) {
        self.folder = folder
        self.ledger = ledger
        self.rootCertificates = rootCertificates
        self.bundleId = bundleId
        self.environment = environment
        self.appAppleId = appAppleId
    }
}
