import Foundation
import StoreCore
import StorePolicy

/// What the operator page shows, read at one moment: the policy serving and its history, the
/// decisions of the last hour and day, what waits in the ledger, and the experiments.
struct OperatorPageFacts: Sendable {
    /// What waits in the ledger for something or someone.
    struct Waiting: Sendable {
        /// Transactions stored without a recorded grant decision, oldest purchase first.
        var unfinished: [StoredTransaction]
        /// Notifications kept for customers not known yet, oldest first.
        var pendingNotifications: [PendingNotification]
        /// Notifications kept because their transaction contradicts the stored one, oldest first.
        var conflicts: [NotificationConflict]
        /// Refund requests Apple asked about, oldest first, each with its answer or failure.
        var refundRequests: [ConsumptionRequestRecord]
        /// The end of the last notification history window reconciled, and when it was set.
        var checkpoint: ReconciliationMark?
        /// How the outbox of outgoing events stands.
        var events: OutgoingEventBacklog
        /// Pending events written over a minute ago, and events given up: the latest of each.
        var lateOrFailedEvents: [OutgoingEvent]
    }

    /// An experiment the policy declares or the ledger recorded exposures for.
    struct Experiment: Sendable, Equatable {
        /// Its name.
        var name: String
        /// The phase the policy serves, when it declares the experiment.
        var servingPhase: String?
        /// The phases the ledger recorded, oldest first.
        var recordedPhases: [String]
    }

    /// Who drew the page: a running service, or `storerules ledger metrics --html` from a
    /// ledger alone, which knows no decisions, no policy history and serves no report.
    enum Source: Sendable, Equatable {
        /// `GET /admin` of a running service.
        case service
        /// A command, from the ledger it names.
        case ledger(String)
    }

    /// When the facts were read.
    var readAt: Date
    /// Who drew the page.
    var source: Source = .service
    /// The policy serving, or the one given to the command; nil for none.
    var policy: PolicyAnswer?
    /// The policy's loads and failures to load since the start, newest first.
    var policyHistory: [PolicyHistory.Event]
    /// The fleet's newest releases, newest first, when the service follows them and they could be read.
    var releases: [PolicyRelease]?
    /// Whether the service follows the fleet's releases but they could not be read.
    var releasesUnreadable = false
    /// The decisions of the last hour and day, and their latest failures; nil away from a service.
    var decisions: RecentDecisions.Summary?
    /// What waits; nil when the ledger could not be read.
    var waiting: Waiting?
    /// The experiments, by name; empty when there are none (or the ledger could not be read
    /// and the policy declares none).
    var experiments: [Experiment]

    /// How many of the fleet's newest releases the page lists.
    static let releasesShown = 20

    /// Reads the facts of `router`'s service now. A ledger that cannot be read leaves
    /// ``waiting`` nil and the experiments to the policy's declarations; `log` hears why.
    static func read(from router: HTTPRouter, log: (String) -> Void) -> OperatorPageFacts {
        let service = router.service
        let (waiting, experiments) = readLedger(service.ledger, declared: service.engine.experiments, log: log)
        var facts = OperatorPageFacts(readAt: Date(), policy: service.policyAnswer(), policyHistory: service.policyHistory.events,
                                      decisions: router.recentDecisions.summary(), waiting: waiting, experiments: experiments)
        if let feed = router.releases {
            do {
                facts.releases = try feed.newestReleases(releasesShown)
            } catch {
                facts.releasesUnreadable = true
                log("the operator page shows no releases: they could not be read: \(error)")
            }
        }
        return facts
    }

    /// Reads what `ledger` (named `name`) holds now, with `engine`'s policy when given, for a
    /// page drawn away from a service.
    static func read(ledger: Ledger, named name: String, engine: PolicyEngine?, log: (String) -> Void) -> OperatorPageFacts {
        let (waiting, experiments) = readLedger(ledger, declared: engine?.experiments ?? [:], log: log)
        let now = Date()
        let policy = engine.map { PolicyAnswer(version: $0.version, hooks: $0.definedHooks, loadedAt: now, reloads: 0, problem: nil) }
        return OperatorPageFacts(readAt: now, source: .ledger(name), policy: policy, policyHistory: [], decisions: nil,
                                 waiting: waiting, experiments: experiments)
    }

    /// What waits in `ledger` and the experiments it recorded beside those `declared`; nil
    /// and the declared ones alone when it cannot be read, `log` hearing why.
    private static func readLedger(_ ledger: Ledger, declared: [String: ExperimentDeclaration],
                                   log: (String) -> Void) -> (Waiting?, [Experiment]) {
        var waiting: Waiting?
        var recorded: [ExperimentPhaseRecord] = []
        let now = Date().millisecondsSince1970
        do {
            waiting = Waiting(
                unfinished: try ledger.unfinishedTransactions(), pendingNotifications: try ledger.pendingNotifications(),
                conflicts: try ledger.notificationConflicts(), refundRequests: try ledger.consumptionRequests(),
                checkpoint: try ledger.reconciliationMark(.checkpoint, key: Reconciler.checkpointKey),
                events: try ledger.outgoingEventBacklog(at: now), lateOrFailedEvents: try lateOrFailedEvents(in: ledger, at: now))
            recorded = try ledger.experimentPhases(experiment: nil)
        } catch {
            log("the operator page shows no ledger figures: the ledger could not be read: \(error)")
        }
        let names = Set(declared.keys).union(recorded.map(\.experiment)).sorted()
        let experiments = names.map { name in
            Experiment(name: name, servingPhase: declared[name]?.phase,
                       recordedPhases: recorded.filter { $0.experiment == name }.sorted { $0.firstRecordedDate < $1.firstRecordedDate }.map(\.phase))
        }
        return (waiting, experiments)
    }

    /// The latest pending events written over a minute before `now`, then the latest failed ones,
    /// as many of each as the page shows.
    private static func lateOrFailedEvents(in ledger: Ledger, at now: Int64) throws -> [OutgoingEvent] {
        let late = try ledger.outgoingEvents(OutgoingEventQuery(
            state: .pending, before: now - OutgoingEventBacklog.lateAfterMilliseconds, limit: OperatorPage.rowsShown))
        return late + (try ledger.outgoingEvents(OutgoingEventQuery(state: .failed, limit: OperatorPage.rowsShown)))
    }
}
