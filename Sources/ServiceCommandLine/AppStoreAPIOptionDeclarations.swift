import AppStoreServerAPI
import CommandLineOptions
import Foundation
import StoreCore

/// The options of every command that talks to the App Store Server API, declared once: the
/// `.p8` key, its id, the issuer id and the API's base URL, each also read from an environment
/// variable when the option is absent. None of them is ever printed.
public enum AppStoreAPIOptionDeclarations {
    /// `--app-store-key FILE` (`STORERULES_APP_STORE_KEY`).
    public static let key = TypedOption<String>.text(
        "app-store-key", "FILE", help: "The App Store Connect API key's .p8 file (or STORERULES_APP_STORE_KEY).")
    /// `--app-store-key-id ID` (`STORERULES_APP_STORE_KEY_ID`).
    public static let keyID = TypedOption<String>.text(
        "app-store-key-id", "ID", help: "The key's id (or STORERULES_APP_STORE_KEY_ID).")
    /// `--app-store-issuer-id ID` (`STORERULES_APP_STORE_ISSUER_ID`).
    public static let issuerID = TypedOption<String>.text(
        "app-store-issuer-id", "ID", help: "The issuer id of the key's team (or STORERULES_APP_STORE_ISSUER_ID).")
    /// `--app-store-url URL` (`STORERULES_APP_STORE_URL`).
    public static let url = TypedOption<URL>.value(
        "app-store-url", "URL", help: "The API's base URL (or STORERULES_APP_STORE_URL): Apple's for the environment when "
            + "absent; a local store's 'api' address in tests."
    ) { text throws(UsageError) in
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw UsageError("--app-store-url must be an http:// or https:// URL, not '\(text)'")
        }
        return url
    }

    /// The environment variable each option falls back to.
    public static let environmentVariables = [
        key.option.name: "STORERULES_APP_STORE_KEY", keyID.option.name: "STORERULES_APP_STORE_KEY_ID",
        issuerID.option.name: "STORERULES_APP_STORE_ISSUER_ID", url.option.name: "STORERULES_APP_STORE_URL",
    ]

    /// The declarations, in the order help lists them, for a command that always talks to the
    /// App Store Server API: the key and its ids are required.
    public static let all: [CommandOption] = [
        key.option.withHelp(key.option.help + " Required."), keyID.option.withHelp(keyID.option.help + " Required."),
        issuerID.option.withHelp(issuerID.option.help + " Required."), url.option,
    ]

    /// The declarations, in the order help lists them, for a command that talks to the App Store
    /// Server API only when given a key: then its ids are required too.
    public static let optional: [CommandOption] = [
        key.option.withHelp(key.option.help + " Optional; with it, --app-store-key-id and --app-store-issuer-id are required."),
        keyID.option.withHelp(keyID.option.help + " Required with --app-store-key."),
        issuerID.option.withHelp(issuerID.option.help + " Required with --app-store-key."), url.option,
    ]

    /// Whether the options or the environment name a key: then the command talks to the App
    /// Store Server API, and a missing id is a usage error rather than a feature left off.
    public static func isGiven(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        if try parsed.value(of: key) != nil { return true }
        return !(environment["STORERULES_APP_STORE_KEY"] ?? "").isEmpty
    }

    /// Checks that the options (or the environment) give the key, its id and its issuer id and
    /// a well-formed URL, before a command does anything it would then have done for nothing
    /// (such as creating a ledger).
    ///
    /// - Throws: ``CommandLineOptions/UsageError`` for the first one missing or malformed, naming
    ///   it and its variable, as ``client(_:verifier:environment:)`` would.
    public static func checkGiven(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        for option in [key, keyID, issuerID] {
            _ = try read(option, parsed, environment)
        }
        _ = try baseURL(parsed, environment)
    }

    /// A client for the app `verifier` checks, with the key and URL the options (or the
    /// environment) give.
    ///
    /// - Throws: ``CommandLineOptions/UsageError`` for a missing or malformed option, naming it
    ///   and its variable; the key file's own error when it cannot be used.
    public static func client(_ parsed: ParsedArguments, verifier: SignedDataVerifier,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AppStoreServerAPIClient {
        let keyPath = try read(key, parsed, environment)
        let apiKey = try AppStoreServerAPIKey(contentsOfFile: keyPath, keyID: try read(keyID, parsed, environment),
                                              issuerID: try read(issuerID, parsed, environment))
        return try AppStoreServerAPIClient(key: apiKey, verifier: verifier, baseURL: try baseURL(parsed, environment))
    }

    /// The value of `option`, or of its environment variable.
    private static func read(_ option: TypedOption<String>, _ parsed: ParsedArguments, _ environment: [String: String]) throws -> String {
        if let value = try parsed.value(of: option) { return value }
        let variable = environmentVariables[option.option.name] ?? ""
        guard let value = environment[variable], !value.isEmpty else {
            throw UsageError("missing \(option.option.label) (or \(variable)): the App Store Server API needs it")
        }
        return value
    }

    /// The base URL `--app-store-url` or its variable gives; nil for Apple's own.
    private static func baseURL(_ parsed: ParsedArguments, _ environment: [String: String]) throws -> URL? {
        if let given = try parsed.value(of: url) { return given }
        guard let text = environment["STORERULES_APP_STORE_URL"], !text.isEmpty else { return nil }
        return try url.read(text)
    }
}
