import CommandLineOptions
import ServiceCommandLine
import StoreCore

/// The options of `ledger ingest`: the service's own declarations with the defaults this
/// command gives them, and the customer of every payload.
enum IngestOptions {
    static let root = ServiceOptionDeclarations.root.withHelp(
        "A PEM file of trusted root certificates (Apple Root CA - G3, or a local store's root). Repeat for several. Required.")
    static let bundleID = ServiceOptionDeclarations.bundleID.withHelp(
        "The bundle identifier signed data must name (default: \(StoreCommand.defaultBundleID)).")
    static let environment = ServiceOptionDeclarations.environment.withHelp(
        "\(AppStoreEnvironment.knownSpellings), in any letter case: the environment signed data must come from (default: Xcode).")
    static let appAppleID = ServiceOptionDeclarations.appAppleID
    static let customer = TypedOption<String>.text(
        "customer", "ID", help: "The customer of every payload. Required for a signed transaction; a notification without it "
            + "goes to the customer the ledger finds by original transaction id or app account token.")
}
