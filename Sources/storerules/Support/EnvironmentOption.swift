import CommandLineOptions
import StoreCore

/// The one reading of `--environment` for every command: any letter case of a known
/// environment's name.
enum EnvironmentOption {
    /// The environment `text` names, or a usage error listing the names.
    static func parse(_ text: String) throws(UsageError) -> AppStoreEnvironment {
        guard let environment = AppStoreEnvironment(spelling: text) else {
            throw UsageError("--environment must be \(AppStoreEnvironment.knownSpellings), not '\(text)'")
        }
        return environment
    }
}
