import CommandLineOptions
import Foundation
import ServiceCommandLine
import StoreCore
import StoreHTTP
import StoreService

/// `storerules serve`'s options, read and checked before anything starts.
struct ServeOptions {
    /// What the service serves and trusts.
    let service: ServiceConfiguration
    /// Where and how it listens.
    let http: HTTPServerConfiguration
    /// The API keys file, when keys are checked.
    let apiKeysPath: String?
    /// Where decisions are logged (`-` for standard output), when anywhere.
    let decisionLogPath: String?
    /// Whether policy.lua is reloaded when it changes.
    let watch: Bool
    /// Whether the policy comes from the ledger's releases, followed as they are published.
    let policyFromLedger: Bool
    /// How often to reconcile the ledger with the App Store Server API, if at all.
    let reconcileEvery: Duration?
    /// The local store state file whose clock the service decides at, when not the host's.
    private(set) var storeClockPath: String?
    /// Where outgoing events go, when they are recorded and sent.
    let events: EventDeliveryOptions?

    // MARK: - Declarations

    /// `--listen HOST:PORT`.
    static let listen = TypedOption<ListenAddress>.value(
        "listen", "HOST:PORT", help: "Where to listen (default 127.0.0.1:8080; port 0 picks a free one; [::1]:8080 for IPv6)."
    ) { text throws(UsageError) in try ListenAddress(text) }
    static let threads = TypedOption<Int>.count("threads", in: 1...256, help: "Routes answered at once (default 4).")
    static let maxConnections = TypedOption<Int>.count(
        "max-connections", in: 1...65536,
        help: "The most connections open at once (default 256); one more is answered 503 with Retry-After at once and closed.")
    /// The per-address cap when `--max-connections-per-address` is not given.
    static let defaultConnectionsPerAddress = 64
    static let maxConnectionsPerAddress = TypedOption<Int?>.value(
        "max-connections-per-address", "N|off",
        help: "The most connections one client address may hold open (default \(defaultConnectionsPerAddress)); off behind a "
            + "proxy, whose connections all come from its address."
    ) { text throws(UsageError) -> Int? in
        if text == "off" { return nil }
        guard let value = Int(text), (1...65536).contains(value) else {
            throw UsageError("--max-connections-per-address must be a whole number from 1 to 65536, or off, not '\(text)'")
        }
        return value
    }
    static let maxEventNames = TypedOption<Int>.count(
        "max-event-names", in: 1...100_000,
        help: "How many distinct merchandising event names one customer keeps (default 100); a new name past it is answered 422.")
    static let headerTimeout = TypedOption<Int>.count(
        "header-timeout", "SECONDS", in: 1...3600,
        help: "How long a request's headers may take to arrive, and how long an idle keep-alive connection stays open "
            + "(default 10); a body must then keep 1 KiB per second.")
    static let apiKeys = TypedOption<String>.text(
        "api-keys", "FILE", help: "`ROLE KEY` lines, roles app and admin; requests send Authorization: Bearer KEY. Re-read on SIGHUP.")
    static let tlsCertificate = TypedOption<String>.text("tls-cert", "PEM", help: "Serve HTTPS with this certificate chain (with --tls-key).")
    static let tlsKey = TypedOption<String>.text("tls-key", "PEM", help: "The certificate's private key (with --tls-cert).")
    static let decisionLog = TypedOption<String>.text(
        "decision-log", "FILE", help: "Append one JSON line per decision to FILE (- for standard output); reopened on SIGHUP.")
    static let watchFlag = CommandOption.flag(
        "watch", help: "Reload policy.lua and the catalog when either changes, keeping the old version when the new one fails.")
    static let policyFromLedgerFlag = CommandOption.flag(
        "policy-from-ledger", help: "Serve the newest policy released in the PostgreSQL ledger instead of DIR's policy.lua and "
            + "catalog, and follow new releases.")
    static let insecureNoAuthFlag = CommandOption.flag("insecure-no-auth", help: "Serve without API keys; only on a loopback address.")
    static let reconcileEveryOption = TypedOption<Duration>.value(
        "reconcile-every", "DURATION", help: "Reconcile the ledger with the App Store Server API this often (30s, 15m, 1h), one "
            + "instance of a fleet at a time; needs the --app-store-… options."
    ) { text throws(UsageError) in
        guard let duration = CountedDuration.parse(text, units: ["s", "m", "h"]) else {
            throw UsageError("--reconcile-every must be a whole number of seconds, minutes or hours (30s, 15m, 1h), not '\(text)'")
        }
        return duration
    }

    /// Every option of `storerules serve`, in the order help lists them.
    static let declarations: [CommandOption] = ServiceOptionDeclarations.all + [
        listen.option, threads.option, maxConnections.option, maxConnectionsPerAddress.option, maxEventNames.option,
        headerTimeout.option, apiKeys.option, tlsCertificate.option, tlsKey.option, decisionLog.option,
        watchFlag, policyFromLedgerFlag, insecureNoAuthFlag, reconcileEveryOption.option, StoreClockOption.declaration.option,
    ] + EventDeliveryOptions.declarations + AppStoreAPIOptionDeclarations.optional

    init(_ parsed: ParsedArguments) throws {
        let folder = try parsed.positional(0, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 1)
        let ledger = try parsed.required(ServiceOptionDeclarations.ledger)
        let bundleID = try parsed.required(ServiceOptionDeclarations.bundleID)
        let environment = try parsed.required(ServiceOptionDeclarations.environment)
        let rootPaths = try parsed.values(of: ServiceOptionDeclarations.root)
        if rootPaths.isEmpty, environment != .xcode, environment != .localTesting {
            throw UsageError("missing --root PEM: \(environment.rawValue) data must chain to a trusted root")
        }
        var service = ServiceConfiguration(
            folder: folder, ledger: ledger, rootCertificates: try rootPaths.flatMap(VerifyCommand.rootCertificates(at:)),
            bundleId: bundleID, environment: environment, appAppleId: try parsed.value(of: ServiceOptionDeclarations.appAppleID))
        service.maximumEventNames = try parsed.value(of: Self.maxEventNames) ?? Ledger.defaultMaximumEventNames
        if let storeClock = try parsed.value(of: StoreClockOption.declaration) {
            guard environment != .production else {
                throw UsageError("--store-clock follows a local store's clock; a Production service decides at the host's")
            }
            service.clock = { storeClock.now() }
            storeClockPath = storeClock.path
        }
        events = try EventDeliveryOptions.parse(parsed)
        service.recordsOutgoingEvents = events != nil
        self.service = service

        let address = try parsed.value(of: Self.listen) ?? ListenAddress(host: "127.0.0.1", port: 8080)
        let tls = try Self.tlsCredentials(parsed)
        http = HTTPServerConfiguration(
            host: address.host, port: address.port, threads: try parsed.value(of: Self.threads) ?? 4,
            connectionLimit: try parsed.value(of: Self.maxConnections) ?? 256,
            headerTimeout: .seconds(try parsed.value(of: Self.headerTimeout) ?? 10),
            connectionsPerAddressLimit: try parsed.value(of: Self.maxConnectionsPerAddress) ?? Self.defaultConnectionsPerAddress, tls: tls)

        apiKeysPath = try parsed.value(of: Self.apiKeys)
        let insecure = parsed.flag(Self.insecureNoAuthFlag)
        switch (apiKeysPath, insecure) {
        case (_?, true): throw UsageError("--api-keys and --insecure-no-auth exclude each other")
        case (nil, false):
            throw UsageError("missing --api-keys FILE: the app's and the administration routes need keys "
                             + "(or --insecure-no-auth, on a loopback address only)")
        case (nil, true) where !http.isLoopback:
            throw UsageError("--insecure-no-auth serves only on a loopback address (127.0.0.1, ::1), not \(address.host)")
        default: break
        }
        decisionLogPath = try parsed.value(of: Self.decisionLog)
        watch = parsed.flag(Self.watchFlag)
        policyFromLedger = parsed.flag(Self.policyFromLedgerFlag)
        reconcileEvery = try parsed.value(of: Self.reconcileEveryOption)
        if policyFromLedger {
            guard case .postgres = ledger else {
                throw UsageError("--policy-from-ledger needs a PostgreSQL ledger (postgres://…), where releases are published")
            }
            guard !watch else { throw UsageError("--policy-from-ledger and --watch exclude each other: the policy comes from one place") }
        }
    }

    /// The certificate and key `--tls-cert` and `--tls-key` name, read; nil without either.
    static func tlsCredentials(_ parsed: ParsedArguments) throws -> HTTPServerConfiguration.TLSCredentials? {
        switch (try parsed.value(of: tlsCertificate), try parsed.value(of: tlsKey)) {
        case (nil, nil): return nil
        case let (certificate?, key?): return .init(certificatePEM: try read(certificate, "--tls-cert"), keyPEM: try read(key, "--tls-key"))
        default: throw UsageError("--tls-cert and --tls-key go together")
        }
    }

    private static func read(_ path: String, _ option: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure("\(option) \(path): \(error.localizedDescription)")
        }
    }
}

/// Where `--listen` says to listen: `HOST:PORT`, or `[IPv6]:PORT`.
struct ListenAddress: Sendable {
    let host: String
    let port: UInt16

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// The address `text` gives.
    init(_ text: String) throws(UsageError) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError("--listen must be HOST:PORT, such as 127.0.0.1:8080 or [::1]:8080, not '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw UsageError("--listen needs a host before the port, such as 127.0.0.1:\(port)") }
        self.host = host
        self.port = port
    }
}
