import Foundation
import StoreCore
import StoreService

/// A file of exchange rates a report converts money with (`--rates FILE`).
enum RatesFile {
    /// The rates the JSON object in the file at `path` gives, the target currency at 1.
    ///
    /// - Throws: ``CommandFailure`` naming the file when it cannot be read or is not such an object.
    static func read(_ path: String) throws(CommandFailure) -> ExperimentCurrencyRates {
        let json = try Output.read(path)
        do {
            return try ExperimentCurrencyRates(json: json)
        } catch {
            throw CommandFailure("\(path): \(error.description)")
        }
    }
}
