import Foundation
import Synchronization

/// The local store's clock as a grant decision reads it: the store's `now()` may not be
/// called from inside its own operations, so the host keeps this copy up to date around them.
final class StoreNow: Sendable {
    private let value: Mutex<Date>

    init(_ date: Date) {
        value = Mutex(date)
    }

    var date: Date {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
