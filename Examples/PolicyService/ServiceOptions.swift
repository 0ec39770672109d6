import Foundation
import StoreCore
import StoreService

/// How the service was started: `PolicyService FOLDER --ledger FILE --root PEM ... --bundle-id ID
/// --environment E [--app-apple-id N] [--workers N]`.
struct ServiceOptions {
    /// The policy folder: `policy.lua` and its `.storekit` catalog.
    var folder: String
    /// The ledger file, created when missing.
    var ledgerPath: String
    /// PEM files of the roots signed data must chain to.
    var rootPaths: [String]
    /// The app's bundle identifier.
    var bundleId: String
    /// The environment signed data must come from.
    var environment: AppStoreEnvironment
    /// The app's Apple ID, which production notifications must name.
    var appAppleId: Int64?
    /// How many requests are answered at once.
    var workers: Int

    static let usage = """
    Usage: PolicyService FOLDER --ledger FILE --root PEM [--root PEM]... --bundle-id ID
                         --environment E [--app-apple-id N] [--workers N]

    Serves StoreRules over standard input and output: one JSON request per line in, one JSON
    response per line out, answered by N workers at once (so responses may come out of order:
    match them by "id"). Ends when standard input closes, after answering every request.

    Requests: {"id": 1, "op": "storefront", "customer": "ada", "placement": "home"}
              {"id": 2, "op": "ingest_transaction", "customer": "ada", "jws": "<signed transaction>"}
              {"id": 3, "op": "ingest_notification", "jws": "<signedPayload>"[, "customer": "ada"]}
              {"id": 4, "op": "entitlements", "customer": "ada"}
              {"id": 5, "op": "reload"}
    Responses: {"id": 1, "result": {...}} or {"id": 1, "error": {"kind": ..., "message": ...}}

    Options:
      --ledger FILE       The ledger (SQLite), created when missing. Required.
      --root PEM          A PEM file of trusted root certificates (Apple Root CA - G3, or a
                          local signing authority's root). Repeat for several. Required.
      --bundle-id ID      The bundle identifier signed data must name. Required.
      --environment E     Sandbox, Production, Xcode or LocalTesting. Required.
      --app-apple-id N    The app's Apple ID; required for Production.
      --workers N         Requests answered at once (default 2).
    """

    /// Reads the command line (without the program name).
    init(_ arguments: [String]) throws(UsageError) {
        var positionals: [String] = []
        var values: [String: [String]] = [:]
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            let name = String(argument.dropFirst(2))
            guard ["ledger", "root", "bundle-id", "environment", "app-apple-id", "workers"].contains(name) else {
                throw UsageError("unknown option '\(argument)'")
            }
            guard let value = remaining.popFirst() else { throw UsageError("option '\(argument)' needs a value") }
            values[name, default: []].append(value)
        }
        guard positionals.count == 1 else {
            throw UsageError(positionals.isEmpty ? "missing the policy FOLDER" : "unexpected argument '\(positionals[1])'")
        }
        func required(_ name: String, _ what: String) throws(UsageError) -> String {
            guard let value = values[name]?.last else { throw UsageError("missing --\(name) \(what)") }
            return value
        }
        folder = positionals[0]
        ledgerPath = try required("ledger", "FILE")
        rootPaths = values["root"] ?? []
        guard !rootPaths.isEmpty else { throw UsageError("missing --root PEM: the service accepts only verified data") }
        bundleId = try required("bundle-id", "ID")
        let environmentName = try required("environment", "E")
        guard let environment = AppStoreEnvironment.knownValues.first(where: { $0.rawValue.lowercased() == environmentName.lowercased() }) else {
            throw UsageError("--environment must be Sandbox, Production, Xcode or LocalTesting, not '\(environmentName)'")
        }
        self.environment = environment
        appAppleId = try values["app-apple-id"]?.last.map { text throws(UsageError) -> Int64 in
            guard let number = Int64(text) else { throw UsageError("--app-apple-id must be an integer, not '\(text)'") }
            return number
        }
        let workerText = values["workers"]?.last ?? "2"
        guard let workers = Int(workerText), (1...64).contains(workers) else {
            throw UsageError("--workers must be an integer from 1 to 64, not '\(workerText)'")
        }
        self.workers = workers
    }
}

/// A mistake on the command line; printed with the usage.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension ServiceOptions {
    /// What the service serves and trusts, as these options say.
    var configuration: ServiceConfiguration {
        ServiceConfiguration(folder: folder, ledgerPath: ledgerPath, rootPaths: rootPaths, bundleId: bundleId,
                             environment: environment, appAppleId: appAppleId)
    }
}
