import Foundation
@testable import StorePolicy

/// The error `PolicyContext.decode(json:)` throws for `json`; nil when it decodes.
func contextError(_ json: String) -> PolicyInputError? {
    contextError(Data(json.utf8))
}

/// The error `PolicyContext.decode(json:)` throws for `bytes`; nil when they decode.
func contextError(_ bytes: Data) -> PolicyInputError? {
    do {
        _ = try PolicyContext.decode(json: bytes)
        return nil
    } catch {
        return error
    }
}
