import CommandLineOptions
import Foundation
import PostgresLedger
import StoreCore
import StoreService

/// How the service was started: `PolicyService FOLDER --ledger FILE|URL --root PEM ... --bundle-id ID
/// --environment E [--app-apple-id N] [--workers N]`.
struct ServiceOptions {
    /// The policy folder: `policy.lua` and its `.storekit` catalog.
    var folder: String
    /// The ledger: a SQLite file, created when missing, or a PostgreSQL database's URL.
    var ledger: LedgerLocation
    /// PEM files of the roots signed data must chain to.
    var rootPaths: [String]
    /// The contents of each of ``rootPaths``, read once here so a pipe (`--root <(…)`) or
    /// `/dev/stdin` serves as well as a file.
    var rootPEMs: [String]
    /// The app's bundle identifier.
    var bundleId: String
    /// The environment signed data must come from.
    var environment: AppStoreEnvironment
    /// The app's Apple ID, which production notifications must name.
    var appAppleId: Int64?
    /// How many requests are answered at once.
    var workers: Int

    /// The options, declared once for the parser and the usage text.
    static let syntax = CommandSyntax("PolicyService", options: [
        .value("ledger", "FILE|URL", help: "The ledger: a SQLite file, created when missing, or a PostgreSQL "
               + "database as a postgres:// or postgresql:// URL, its schema brought up to date. Required."),
        .repeatable("root", "PEM", help: "A PEM file of trusted root certificates (Apple Root CA - G3, or a local "
                    + "signing authority's root): a file, a pipe such as <(…), or /dev/stdin. Repeat for several. "
                    + "Required."),
        .value("bundle-id", "ID", help: "The bundle identifier signed data must name. Required."),
        .value("environment", "E", help: "\(AppStoreEnvironment.knownSpellings), in any letter case. Required."),
        .value("app-apple-id", "N", help: "The app's Apple ID; required for Production."),
        .value("workers", "N", help: "Requests answered at once (default 2)."),
    ])

    static var usage: String { """
    Usage: PolicyService FOLDER --ledger FILE|URL --root PEM [--root PEM]... --bundle-id ID
                         --environment E [--app-apple-id N] [--workers N]

    Serves StoreRules over standard input and output: one JSON request per line in, one JSON
    response per line out, answered by N workers at once (so responses may come out of order:
    match them by "id"). Ends when standard input closes, after answering every request, and
    closes the ledger.

    Requests: {"id": 1, "op": "storefront", "customer": "ada", "placement": "home"}
              {"id": 2, "op": "ingest_transaction", "customer": "ada", "jws": "<signed transaction>"}
              {"id": 3, "op": "ingest_notification", "jws": "<signedPayload>"[, "customer": "ada"]}
              {"id": 4, "op": "entitlements", "customer": "ada"}
              {"id": 5, "op": "reload"}
    Responses: {"id": 1, "result": {...}} or {"id": 1, "error": {"kind": ..., "message": ...}}

    Options:
    \(HelpText.options(syntax.options))
    """ }

    /// Reads the command line (without the program name), and the root files it names.
    ///
    /// - Throws: ``UsageError`` for a mistake on the command line; ``InputFileError`` for a
    ///   root file that cannot be read.
    init(_ parsed: ParsedArguments) throws {
        try parsed.expectPositionals(atMost: 1)
        folder = try parsed.positional(0, "the policy FOLDER")
        func required(_ name: String, _ what: String) throws(UsageError) -> String {
            guard let value = parsed.value(name) else { throw UsageError("missing --\(name) \(what)") }
            return value
        }
        ledger = LedgerLocation(try required("ledger", "FILE|URL"))
        rootPaths = parsed.values("root")
        guard !rootPaths.isEmpty else { throw UsageError("missing --root PEM: the service accepts only verified data") }
        bundleId = try required("bundle-id", "ID")
        let environmentName = try required("environment", "E")
        guard let environment = AppStoreEnvironment(spelling: environmentName) else {
            throw UsageError("--environment must be \(AppStoreEnvironment.knownSpellings), not '\(environmentName)'")
        }
        self.environment = environment
        appAppleId = try parsed.value("app-apple-id").map { text throws(UsageError) -> Int64 in
            guard let number = Int64(text) else { throw UsageError("--app-apple-id must be an integer, not '\(text)'") }
            return number
        }
        let workerText = parsed.value("workers") ?? "2"
        guard let workers = Int(workerText), (1...64).contains(workers) else {
            throw UsageError("--workers must be an integer from 1 to 64, not '\(workerText)'")
        }
        self.workers = workers
        rootPEMs = try rootPaths.map { path in try InputFile.readText(path, dashMeansStandardInput: false) }
    }
}

extension ServiceOptions {
    /// What the service serves and trusts, as these options say.
    ///
    /// - Throws: ``StartupError`` when a root file holds no readable certificate.
    func configuration() throws(StartupError) -> ServiceConfiguration {
        var roots: [X509Certificate] = []
        for (path, pem) in zip(rootPaths, rootPEMs) {
            do {
                roots += try X509Certificate.certificates(pemRepresentation: pem)
            } catch {
                throw StartupError("the root \(path): \(error)")
            }
        }
        return ServiceConfiguration(folder: folder, ledger: ledger, rootCertificates: roots, bundleId: bundleId,
                                    environment: environment, appAppleId: appAppleId)
    }
}
