import AppStoreServerAPI
import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import StoreHTTP
import StorePolicy
import StoreService

/// `storerules serve DIR --ledger URL …`: StoreRules as an HTTP service.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Serve Apple's notifications, the app's API and decisions over HTTP"

    static var help: String {
        """
        Usage: storerules serve DIR --ledger URL --root PEM... --bundle-id ID --environment E
                                [--app-apple-id N] [--listen HOST:PORT] [--threads N] [--api-keys FILE]
                                [--max-connections N] [--max-connections-per-address N|off] [--header-timeout SECONDS]
                                [--max-event-names N]
                                [--tls-cert PEM --tls-key PEM] [--decision-log FILE|-]
                                [--watch | --policy-from-ledger] [--insecure-no-auth] [--store-clock STATE]
                                [--reconcile-every DURATION] [--app-store-key FILE --app-store-key-id ID
                                 --app-store-issuer-id ID [--app-store-url URL]]

        Serves DIR's policy and catalog over HTTP/1.1: POST /v1/notifications for Apple's App Store
        Server Notifications V2, POST /v1/apple/retention for Apple's Retention Messaging, the
        app's routes under /v1/customers, /v1/transactions and /v1/decisions, administration
        under /v1/admin, and /healthz, /readyz, /metrics (docs/service.md lists them). Prints the
        address it listens on, then serves until SIGTERM or SIGINT, when it stops accepting, lets
        requests in flight finish and exits 0. SIGHUP re-reads the API keys. With
        --policy-from-ledger it serves the newest policy published to its PostgreSQL ledger
        (storerules policy publish) and switches to each new one within a second. With the App
        Store Server API's options it answers refund requests with the policy's consumption hook
        and signs the promotional offers of retention messages with the key.

        Options:
        \(HelpText.options(syntax.options))
        """
    }

    static let syntax = CommandSyntax(name, options: ServeOptions.declarations)

    static func run(_ parsed: ParsedArguments) async throws -> Int32 {
        let options = try ServeOptions(parsed)
        // Bound first, and the TLS certificate and key checked, so a taken port, a forbidden address
        // or a key that does not fit is said before the ledger opens.
        let listening: ListeningSocket
        do {
            listening = try ListeningSocket(host: options.http.host, port: options.http.port)
            try options.http.tls?.check()
        } catch {
            throw CommandFailure(error.description)
        }
        // The keys, and the App Store key options when given, are read before the ledger opens, so
        // a keys file without keys or a missing key id creates no ledger.
        let access: AccessControl
        if let keys = options.apiKeysPath {
            do {
                access = try AccessControl(keysAt: keys)
            } catch {
                throw CommandFailure("--api-keys: \(error)")
            }
        } else {
            access = .unauthenticated
        }
        let talksToAppStore = try options.reconcileEvery != nil || AppStoreAPIOptionDeclarations.isGiven(parsed)
        if talksToAppStore { try AppStoreAPIOptionDeclarations.checkGiven(parsed) }
        var configuration = options.service
        var release: (store: PolicyReleaseStore, current: PolicyRelease)?
        if options.policyFromLedger, case .postgres(let url) = options.service.ledger as? LedgerLocation {
            let store: PolicyReleaseStore
            let latest: PolicyRelease?
            do {
                store = try PolicyReleaseStore(url: url)
                latest = try store.latest()
            } catch {
                throw CommandFailure("the ledger's policy releases: \(error)")
            }
            guard let latest else {
                throw CommandFailure("no policy is released in \(options.service.ledger.displayName); run storerules policy publish DIR first")
            }
            configuration.policy = PolicySource(text: latest.script)
            if let name = latest.catalogName, let text = latest.catalog {
                configuration.catalog = .file(name: name, text: text)
            } else {
                configuration.catalog = .none
            }
            configuration.followsLedgerReleases = true
            release = (store, latest)
        }
        let service: Service
        do {
            service = try Service(configuration: configuration)
        } catch {
            throw CommandFailure(error.message)
        }
        // The App Store Server API's options make the service answer refund requests and sign
        // the promotional offers of retention messages, and with --reconcile-every also reconcile.
        let client: AppStoreServerAPIClient?
        if talksToAppStore {
            do {
                client = try AppStoreAPIOptionDeclarations.client(parsed, verifier: service.verifier)
            } catch let error as AppStoreServerAPIKeyError {
                throw CommandFailure(error.description)
            } catch let error as AppStoreServerAPIError {
                throw UsageError(error.description)
            }
        } else {
            client = nil
        }
        let decisionLog: DecisionLog?
        switch options.decisionLogPath {
        case nil: decisionLog = nil
        case "-": decisionLog = DecisionLog(handle: .standardOutput)
        case let path?:
            do {
                decisionLog = try DecisionLog(appendingTo: path)
            } catch {
                throw CommandFailure("--decision-log \(path): \(error.localizedDescription)")
            }
        }
        let metrics = ServiceMetrics()
        let offerSigner = client.map { PromotionalOfferSignatureIssuer(key: $0.tokens.key, bundleID: service.verifier.bundleId) }
        let router = HTTPRouter(service: service, access: access, metrics: metrics, decisionLog: decisionLog, offerSigner: offerSigner,
                                releases: release?.store)
        let watcher = options.watch ? PolicyWatcher(folder: service.folder) { source, catalog in
            try service.servePolicy(source, catalog: catalog)
        } : nil
        let following = release.map { release in
            LedgerPolicyFollowing(service: service, feed: release.store, current: release.current, metrics: metrics) {
                Output.error("storerules serve: " + $0.asLogLine)
            }
        }
        if let keysPath = access.keysPath { logKeys(of: access, readFrom: keysPath) }
        let signals = try ServeSignals(
            reloadKeys: {
                do {
                    try access.reloadKeys()
                    if let keysPath = access.keysPath { logKeys(of: access, readFrom: keysPath) }
                } catch {
                    Output.error("storerules serve: API keys kept: \(error)".asLogLine)
                }
                do {
                    try decisionLog?.reopen()
                } catch {
                    Output.error("storerules serve: the decision log stays open where it was: \(error.localizedDescription)")
                }
            },
            tick: {
                switch watcher?.reloadIfChanged() {
                case .reloaded(let message)?:
                    service.reportPolicyProblem(nil)
                    service.policyHistory.record(PolicyHistory.Event(time: Date(), loaded: true, version: service.engine.version, origin: "--watch"))
                    metrics.recordReload(result: "success")
                    Output.error("storerules serve: \(message)".asLogLine)
                case .failed(let message)?:
                    service.reportPolicyProblem(message)
                    service.policyHistory.record(PolicyHistory.Event(time: Date(), loaded: false, version: service.engine.version, origin: "--watch",
                                                                     problem: message))
                    metrics.recordReload(result: "failure")
                    Output.error("storerules serve: \(message)".asLogLine)
                case nil:
                    break
                }
            })
        let server: HTTPServer
        do {
            server = try HTTPServer(handler: router, configuration: options.http, listening: listening)
        } catch {
            throw CommandFailure(error.description)
        }
        for warning in service.engine.warnings { Output.error("storerules serve: warning: \(warning)".asLogLine) }
        let scheme = options.http.tls == nil ? "http" : "https"
        let host = options.http.host.contains(":") ? "[\(options.http.host)]" : options.http.host
        Output.line("storerules serve: listening on \(scheme)://\(host):\(server.port) "
                    + "(policy \(service.engine.version), ledger \(options.service.ledger.displayName)"
                    + (access.checksKeys ? "" : ", no API keys") + ")")
        if let storeClockPath = options.storeClockPath {
            Output.error("storerules serve: deciding at the local store's clock in \(storeClockPath) (now \(service.clock().formatted(.iso8601))), "
                         + "not the host's: for a ledger a local store feeds only")
        }
        var schedule: ReconciliationSchedule?
        if let client, let interval = options.reconcileEvery, let location = options.service.ledger as? LedgerLocation {
            schedule = ReconciliationSchedule(reconciler: Reconciler(service: service, client: client), every: interval,
                                              lock: location.reconciliationLock, metrics: metrics) {
                Output.error("storerules serve: " + $0.asLogLine)
            }
        }
        let refunds = client.map { client in
            ConsumptionSchedule(responder: ConsumptionResponder(service: service, client: client, recorder: router.recorder)) {
                Output.error("storerules serve: " + $0.asLogLine)
            }
        }
        let delivery = options.events.map { events in
            OutgoingEventDelivery(
                ledger: service.ledger, sink: WebhookSender(url: events.url, secret: events.secret, clock: { Date() }),
                options: events.delivery, metrics: metrics) { Output.error("storerules serve: " + $0.asLogLine) }
        }
        delivery?.start()
        if let events = options.events {
            Output.error("storerules serve: sending outgoing events to \(WebhookSender.printable(events.url))")
        }
        await signals.wait()
        await delivery?.stop()
        refunds?.stop()
        schedule?.stop()
        server.stop(grace: .seconds(10))
        following?.stop()
        Output.error("storerules serve: stopped")
        return 0
    }

    /// Says how many keys of each role were read, never a key, and warns of a keys file others
    /// may read.
    private static func logKeys(of access: AccessControl, readFrom path: String) {
        Output.error("storerules serve: API keys read from \(path): \(access.keySummary ?? "none")")
        if let warning = APIKeyring.permissionWarning(forFileAt: path) {
            Output.error("storerules serve: warning: \(warning)".asLogLine)
        }
    }
}
