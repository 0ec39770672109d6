import StoreCore

/// A fleet's policy releases as a service follows them: where `storerules policy publish`
/// writes them, and whence each instance hears of a new one. A PostgreSQL ledger's release
/// table is one, composed by the executables (`ServiceCommandLine`), so the service itself
/// links no database client for it.
public protocol PolicyReleaseFeed: Sendable {
    /// Calls `onRelease` with the newest release each time one newer than release `number`
    /// appears, and `onFailure` with what went wrong when the feed cannot be read (it tries
    /// again), until the returned following is stopped.
    func follow(after number: Int64, onRelease: @escaping @Sendable (PolicyRelease) -> Void,
                onFailure: @escaping @Sendable (String) -> Void) -> any PolicyReleaseSubscription
    /// The newest `count` releases, newest first: the fleet's publishes and rollbacks.
    func newestReleases(_ count: Int) throws -> [PolicyRelease]
}

/// A following of a ``PolicyReleaseFeed``, which hears of releases until it is stopped.
public protocol PolicyReleaseSubscription: Sendable {
    /// Stops following; no release is reported after this returns.
    func stop()
}
