import CommandLineOptions
import Foundation
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

    init(_ parsed: ParsedArguments) throws {
        let folder = try parsed.positional(0, "the policy folder DIR")
        try parsed.expectPositionals(atMost: 1)
        let ledger = try LedgerCommand.location(parsed)
        guard let bundleID = parsed.value("bundle-id") else { throw UsageError("missing --bundle-id ID") }
        guard let environmentText = parsed.value("environment") else { throw UsageError("missing --environment E") }
        let environment = try EnvironmentOption.parse(environmentText)
        let rootPaths = parsed.values("root")
        if rootPaths.isEmpty, environment != .xcode, environment != .localTesting {
            throw UsageError("missing --root PEM: \(environment.rawValue) data must chain to a trusted root")
        }
        let appAppleId = try AppAppleIDOption.parse(parsed)
        var service = ServiceConfiguration(
            folder: folder, ledger: ledger, rootCertificates: try rootPaths.flatMap(VerifyCommand.rootCertificates(at:)),
            bundleId: bundleID, environment: environment, appAppleId: appAppleId)
        service.maximumEventNames = try Self.count(parsed, "max-event-names", in: 1...100_000) ?? Ledger.defaultMaximumEventNames
        self.service = service

        let (host, port) = try Self.listenAddress(parsed.value("listen") ?? "127.0.0.1:8080")
        let threads = try Self.count(parsed, "threads", in: 1...256) ?? 4
        let tls: HTTPServerConfiguration.TLSCredentials?
        switch (parsed.value("tls-cert"), parsed.value("tls-key")) {
        case (nil, nil): tls = nil
        case let (certificate?, key?): tls = .init(certificatePEM: try Self.read(certificate, "--tls-cert"), keyPEM: try Self.read(key, "--tls-key"))
        default: throw UsageError("--tls-cert and --tls-key go together")
        }
        let connections = try Self.count(parsed, "max-connections", in: 1...65536) ?? 256
        let perAddress = try Self.count(parsed, "max-connections-per-address", in: 1...65536)
        let headerSeconds = try Self.count(parsed, "header-timeout", in: 1...3600) ?? 10
        http = HTTPServerConfiguration(host: host, port: port, threads: threads, connectionLimit: connections,
                                       headerTimeout: .seconds(headerSeconds), connectionsPerAddressLimit: perAddress, tls: tls)

        apiKeysPath = parsed.value("api-keys")
        let insecure = parsed.flag("insecure-no-auth")
        switch (apiKeysPath, insecure) {
        case (_?, true): throw UsageError("--api-keys and --insecure-no-auth exclude each other")
        case (nil, false):
            throw UsageError("missing --api-keys FILE: the app's and the administration routes need keys "
                             + "(or --insecure-no-auth, on a loopback address only)")
        case (nil, true) where !http.isLoopback:
            throw UsageError("--insecure-no-auth serves only on a loopback address (127.0.0.1, ::1), not \(host)")
        default: break
        }
        decisionLogPath = parsed.value("decision-log")
        watch = parsed.flag("watch")
        policyFromLedger = parsed.flag("policy-from-ledger")
        if policyFromLedger {
            guard case .postgres = ledger else {
                throw UsageError("--policy-from-ledger needs a PostgreSQL ledger (postgres://…), where releases are published")
            }
            guard !watch else { throw UsageError("--policy-from-ledger and --watch exclude each other: the policy comes from one place") }
        }
    }

    /// The whole number `--name` gives, within `range`; nil when not given.
    private static func count(_ parsed: ParsedArguments, _ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// The host and port of `HOST:PORT` (`[IPv6]:PORT` for IPv6).
    static func listenAddress(_ text: String) throws(UsageError) -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError("--listen must be HOST:PORT, such as 127.0.0.1:8080 or [::1]:8080, not '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw UsageError("--listen needs a host before the port, such as 127.0.0.1:\(port)") }
        return (host, port)
    }

    private static func read(_ path: String, _ option: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure("\(option) \(path): \(error.localizedDescription)")
        }
    }
}
