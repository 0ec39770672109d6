import Foundation
import StoreCore

/// Where a ``LocalStore`` reads the time, like the clock of StoreKit Testing's transaction manager.
///
/// Whichever clock it uses, the store moves it forward with ``LocalStore/advance(by:)`` and
/// keeps that position in its tables, so a store opened again by another process sees the
/// same time. As the clock passes a subscription's expiration date, the store renews it
/// (several times when several periods passed), fails to renew it, or lets it expire.
public enum StoreClock: Sendable, Hashable {
    /// The host's clock, moved forward by the total of every ``LocalStore/advance(by:)``.
    case system
    /// A clock that stands still and moves only with ``LocalStore/advance(by:)``: the clock of
    /// reproducible tests. `startingAt` is its time in a store that never ran; a store that did
    /// continues from where it stopped.
    case manual(startingAt: Date)
}
