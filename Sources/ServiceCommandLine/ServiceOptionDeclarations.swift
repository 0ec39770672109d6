import CommandLineOptions
import PostgresLedger
import StoreCore

/// The options every StoreRules service executable takes, declared once, so `storerules serve`
/// and the `PolicyService` example read them alike: the ledger, the trusted roots, the bundle
/// identifier, the environment and the app's Apple ID.
public enum ServiceOptionDeclarations {
    /// `--ledger URL`: a SQLite file's path or a PostgreSQL URL.
    public static let ledger = TypedOption<LedgerLocation>.value(
        "ledger", "URL", help: "The ledger: a SQLite file's path (created when missing; sqlite:PATH or ./PATH when it could be read "
            + "otherwise), or a postgres:// or postgresql:// URL. Required.",
        reading: { text throws(UsageError) in try LedgerLocation.option(text) })

    /// `--root PEM`..., the files of the roots signed data must chain to.
    public static let root = TypedOption<String>.repeatable(
        "root", "PEM", help: "A PEM file of trusted root certificates (Apple Root CA - G3, or a local store's root): a file, a "
            + "pipe such as <(…), or /dev/stdin. Repeat for several."
    ) { $0 }

    /// `--bundle-id ID`.
    public static let bundleID = TypedOption<String>.text("bundle-id", "ID", help: "The bundle identifier signed data must name. Required.")

    /// `--environment E`, in any letter case.
    public static let environment = TypedOption<AppStoreEnvironment>.value(
        "environment", "E", help: "\(AppStoreEnvironment.knownSpellings), in any letter case: the environment signed data must come "
            + "from. Required."
    ) { text throws(UsageError) in
        guard let environment = AppStoreEnvironment(spelling: text) else {
            throw UsageError("--environment must be \(AppStoreEnvironment.knownSpellings), not '\(text)'")
        }
        return environment
    }

    /// `--app-apple-id N`, which Production notifications must name.
    public static let appAppleID = TypedOption<Int64>.value("app-apple-id", "N", help: "The app's Apple ID; required for Production.") {
        text throws(UsageError) in
        guard let number = Int64(text) else { throw UsageError("--app-apple-id must be an integer, not '\(text)'") }
        return number
    }

    /// The declarations, in the order help lists them.
    public static let all: [CommandOption] = [ledger.option, root.option, bundleID.option, environment.option, appAppleID.option]
}
