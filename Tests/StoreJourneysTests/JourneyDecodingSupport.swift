import Foundation
import StoreJourneys
import StorePolicy

/// The error `Journey.decode(json:)` throws for `json`; nil when it decodes.
func journeyError(_ json: String) -> PolicyInputError? {
    journeyError(Data(json.utf8))
}

/// The error `Journey.decode(json:)` throws for `bytes`; nil when they decode.
func journeyError(_ bytes: Data) -> PolicyInputError? {
    do {
        _ = try Journey.decode(json: bytes)
        return nil
    } catch {
        return error
    }
}
