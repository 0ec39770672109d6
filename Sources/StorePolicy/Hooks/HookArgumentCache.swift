import Foundation

/// What one argument list decodes to, kept after its first request decodes it, for the many
/// requests that share the list: `storerules diff` asks every scenario of a hook, under both
/// policies, with the same few argument lists, and reading a transaction or a refund request
/// from its JSON costs more than the decision made with it.
///
/// A value is kept by its argument's index, its type and the context's `now` (a refund request
/// without a date is made at `now`); a decoding that fails is not kept, so each request that
/// reads the argument is refused with the same error.
final class HookArgumentCache: @unchecked Sendable {
    private struct Key: Hashable {
        let index: Int
        let type: ObjectIdentifier
        let now: Date
    }

    private let lock = NSLock()
    // Touched under `lock` only.
    private var values: [Key: Any] = [:]

    /// A cache with nothing decoded yet.
    init() {}

    /// The argument at `index` as `type` for a context at `now`: kept from an earlier request,
    /// or read by `decode` and kept.
    func value<Value>(_ type: Value.Type, at index: Int, now: Date,
                      decode: () throws(PolicyError) -> Value) throws(PolicyError) -> Value {
        let key = Key(index: index, type: ObjectIdentifier(type), now: now)
        if let kept = lock.withLock({ values[key] }) as? Value { return kept }
        let value = try decode()
        lock.withLock { values[key] = value }
        return value
    }
}
