import PostgresLedger
import StoreCore
import StoreService

/// A PostgreSQL ledger's release table is the fleet's feed of policy releases: heard through
/// `LISTEN`/`NOTIFY`, and looked at every few seconds.
extension PolicyReleaseStore: PolicyReleaseFeed {
    public func follow(after number: Int64, onRelease: @escaping @Sendable (PolicyRelease) -> Void,
                       onFailure: @escaping @Sendable (String) -> Void) -> any PolicyReleaseSubscription {
        PolicyReleaseFollower(store: self, after: number, onRelease: onRelease, onFailure: onFailure)
    }

    public func newestReleases(_ count: Int) throws -> [PolicyRelease] {
        try releases(newest: count)
    }
}

/// A follower stops as a following does.
extension PolicyReleaseFollower: PolicyReleaseSubscription {}
