import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine
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

    /// `--workers N`.
    static let workersOption = TypedOption<Int>.count("workers", in: 1...64, help: "Requests answered at once (default 2).")

    /// The options, declared once for the parser and the usage text: those `storerules serve`
    /// takes too, from the same declarations, and this service's own.
    static let syntax = CommandSyntax("PolicyService", options: ServiceOptionDeclarations.all + [workersOption.option])

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
        ledger = try parsed.required(ServiceOptionDeclarations.ledger)
        rootPaths = try parsed.values(of: ServiceOptionDeclarations.root)
        guard !rootPaths.isEmpty else { throw UsageError("missing --root PEM: the service accepts only verified data") }
        bundleId = try parsed.required(ServiceOptionDeclarations.bundleID)
        environment = try parsed.required(ServiceOptionDeclarations.environment)
        appAppleId = try parsed.value(of: ServiceOptionDeclarations.appAppleID)
        workers = try parsed.value(of: Self.workersOption) ?? 2
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
