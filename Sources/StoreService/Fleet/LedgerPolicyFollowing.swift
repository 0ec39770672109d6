import Foundation
import StoreCore
import PostgresLedger
import StorePolicy

/// Keeps a service on the newest policy released in its PostgreSQL ledger
/// (`storerules policy publish`), switching within moments of each release.
///
/// A release is swapped in when its script compiles and validates here and its catalog is the
/// one this service serves; otherwise the previous policy keeps serving, the failure counts in
/// the metrics and shows in `/readyz` (``Readiness/policyProblem``) until a later release loads.
public final class LedgerPolicyFollowing: Sendable {
    private let follower: PolicyReleaseFollower

    /// Follows `store`'s releases after `current` for `service`; `log` hears each switch and failure.
    public init(service: Service, store: PolicyReleaseStore, current: PolicyRelease, metrics: ServiceMetrics,
                log: @escaping @Sendable (String) -> Void) {
        follower = PolicyReleaseFollower(store: store, after: current.number, onRelease: { release in
            Self.serve(release, in: service, metrics: metrics, log: log)
        }, onFailure: { problem in
            log("following policy releases: \(problem); trying again")
        })
    }

    /// Stops following.
    public func stop() {
        follower.stop()
    }

    private static func serve(_ release: PolicyRelease, in service: Service, metrics: ServiceMetrics, log: @Sendable (String) -> Void) {
        if release.catalog.map(SHA256Digest.hex(of:)) != service.catalogDigest {
            let problem = "release \(release.number) (version \(release.version)) changes the catalog; "
                + "restart the instance to serve it; version \(service.engine.version) keeps serving"
            service.reportPolicyProblem(problem)
            metrics.recordReload(result: "failure")
            log(problem)
            return
        }
        guard release.version != service.engine.version else {
            service.reportPolicyProblem(nil)
            return
        }
        do {
            try service.engine.reload(PolicySource(text: release.script))
            service.reportPolicyProblem(nil)
            metrics.recordReload(result: "success")
            log("policy release \(release.number) serving, version \(release.version)")
        } catch {
            let problem = "release \(release.number) (version \(release.version)) failed to load: \(error.description); "
                + "version \(service.engine.version) keeps serving"
            service.reportPolicyProblem(problem)
            metrics.recordReload(result: "failure")
            log(problem)
        }
    }
}
