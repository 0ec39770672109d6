import CPolicyContext
import Foundation

/// The plain-data copy of a ``PolicyContext`` that the C context (`CPolicyContext`) makes
/// `ctx` from: its strings as UTF-8 bytes in an arena, its numbers and flags as they are.
///
/// ``fill(from:)`` copies the scalars; the customer's collections (entitlements, subscriptions,
/// balances) are copied the first time a hook reads one of them, so a hook that reads none pays
/// nothing for them. One snapshot serves one state: each fill reuses the arena of the last one,
/// so preparing a request allocates nothing once the arena has grown to the largest context
/// seen. The pointer it returns stays valid until the next fill.
final class ContextSnapshot {
    private let snapshot = UnsafeMutablePointer<policy_context_snapshot>.allocate(capacity: 1)
    private var arena = SnapshotArena()
    /// The customer of the last fill, whose attributes and events Swift pushes.
    private(set) var customer = CustomerContext()

    deinit {
        arena.deallocate()
        snapshot.deallocate()
    }

    /// Copies `context`'s scalars and keeps its customer for the collections.
    func fill(from context: PolicyContext) -> UnsafeMutablePointer<policy_context_snapshot> {
        arena.reset()
        customer = context.customer
        var filled = policy_context_snapshot()
        filled.now = lua_Integer(EpochSeconds.whole(context.now))
        filled.storefront = arena.copy(context.storefront)
        filled.locale = arena.copy(context.locale)
        filled.environment = arena.copy(context.environment.rawValue)
        filled.customer_id = arena.copy(customer.id)
        filled.seed = lua_Integer(customer.seed)
        filled.status_known = customer.statusKnown ? 1 : 0
        filled.fill_collections = { owner, snapshot in
            guard let owner, let snapshot else { return }
            Unmanaged<ContextSnapshot>.fromOpaque(owner).takeUnretainedValue().fillCollections(snapshot)
        }
        filled.owner = Unmanaged.passUnretained(self).toOpaque()
        snapshot.pointee = filled
        return snapshot
    }

    /// Copies the customer's entitlements, subscriptions and balances into `snapshot`.
    private func fillCollections(_ snapshot: UnsafeMutablePointer<policy_context_snapshot>) {
        snapshot.pointee.entitlement_count = Int32(customer.entitlements.count)
        snapshot.pointee.entitlements = UnsafePointer(arena.copy(customer.entitlements))
        snapshot.pointee.subscription_count = Int32(customer.subscriptions.count)
        snapshot.pointee.subscriptions = UnsafePointer(copySubscriptions(customer.subscriptions))
        snapshot.pointee.balance_count = Int32(customer.balances.count)
        let balances = arena.allocate(policy_context_balance.self, count: customer.balances.count)
        for (position, (item, amount)) in customer.balances.enumerated() {
            balances[position] = policy_context_balance(item: arena.copy(item), amount: lua_Integer(amount))
        }
        snapshot.pointee.balances = UnsafePointer(balances)
    }

    /// Each subscription as a `ctx.customer.subscriptions` entry: the value of every declared
    /// entry field (``ContextTable/subscriptionEntry``), in the declaration's order.
    private func copySubscriptions(_ subscriptions: [String: SubscriptionSnapshot]) -> UnsafeMutablePointer<policy_context_subscription> {
        let fieldCount = Int(POLICY_CONTEXT_ENTRY_FIELD_COUNT)
        let items = arena.allocate(policy_context_subscription.self, count: subscriptions.count)
        for (position, (groupID, subscription)) in subscriptions.enumerated() {
            let values = arena.allocate(policy_context_value.self, count: fieldCount)
            var absent: UInt32 = 0
            for fieldPosition in 0..<fieldCount {
                guard let field = policy_context_entry_field(rawValue: UInt32(fieldPosition)) else { continue }
                if let value = entryValue(of: field, in: subscription) {
                    values[fieldPosition] = value
                } else {
                    absent |= 1 << fieldPosition
                }
            }
            items[position] = policy_context_subscription(group_id: arena.copy(groupID), absent: absent, values: UnsafePointer(values))
        }
        return items
    }

    /// What `field` of `subscription`'s entry holds, copied into the arena; nil when the entry
    /// leaves it out (no expiration date known). A field declared in `CPolicyContext` is a case
    /// here, or this does not compile.
    private func entryValue(of field: policy_context_entry_field, in subscription: SubscriptionSnapshot) -> policy_context_value? {
        switch field {
        case .POLICY_CONTEXT_ENTRY_PRODUCT_ID: policy_context_value(string: arena.copy(subscription.productID))
        case .POLICY_CONTEXT_ENTRY_GROUP_LEVEL: policy_context_value(integer: lua_Integer(subscription.groupLevel))
        case .POLICY_CONTEXT_ENTRY_STATE: policy_context_value(string: arena.copy(subscription.state.rawValue))
        case .POLICY_CONTEXT_ENTRY_WILL_AUTO_RENEW: policy_context_value(boolean: subscription.willAutoRenew ? 1 : 0)
        case .POLICY_CONTEXT_ENTRY_EXPIRATION_DATE:
            subscription.expirationDate.map { policy_context_value(integer: lua_Integer(EpochSeconds.whole($0))) }
        case .POLICY_CONTEXT_ENTRY_INTRO_ELIGIBLE: policy_context_value(boolean: subscription.introEligible ? 1 : 0)
        case .POLICY_CONTEXT_ENTRY_WIN_BACK_OFFERS:
            policy_context_value(list: policy_context_list(items: UnsafePointer(arena.copy(subscription.winBackOfferIDs)),
                                                           count: Int32(subscription.winBackOfferIDs.count)))
        case .POLICY_CONTEXT_ENTRY_PAID_MONTHS: policy_context_value(number: subscription.paidMonths)
        }
    }
}

/// Memory for one snapshot at a time, in chunks that never move while a snapshot uses them.
private struct SnapshotArena {
    private static let chunkSize = 4096
    private var chunks: [(start: UnsafeMutableRawPointer, size: Int)] = []
    private var used = 0

    /// Forgets the last snapshot, keeping the largest chunk for the next one.
    mutating func reset() {
        if chunks.count > 1, let largest = chunks.max(by: { $0.size < $1.size }) {
            for chunk in chunks where chunk.start != largest.start { chunk.start.deallocate() }
            chunks = [largest]
        }
        used = 0
    }

    /// Gives every chunk back.
    mutating func deallocate() {
        for chunk in chunks { chunk.start.deallocate() }
        chunks = []
    }

    /// Room for `count` values of `type`, uninitialized.
    mutating func allocate<Value>(_ type: Value.Type, count: Int) -> UnsafeMutablePointer<Value> {
        bytes(MemoryLayout<Value>.stride * count, alignment: MemoryLayout<Value>.alignment).bindMemory(to: Value.self, capacity: count)
    }

    /// `string`'s UTF-8 bytes, copied.
    mutating func copy(_ string: String) -> policy_context_string {
        var string = string
        return string.withUTF8 { utf8 in
            let destination = bytes(utf8.count, alignment: 1)
            if let source = utf8.baseAddress { destination.copyMemory(from: source, byteCount: utf8.count) }
            return policy_context_string(bytes: destination.assumingMemoryBound(to: CChar.self), length: utf8.count)
        }
    }

    /// Each of `strings`, copied, in a list.
    mutating func copy(_ strings: [String]) -> UnsafeMutablePointer<policy_context_string> {
        let list = allocate(policy_context_string.self, count: strings.count)
        for (position, string) in strings.enumerated() { list[position] = copy(string) }
        return list
    }

    private mutating func bytes(_ count: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if let current = chunks.last {
            let start = (used + alignment - 1) & ~(alignment - 1)
            if start + count <= current.size {
                used = start + count
                return current.start + start
            }
        }
        let size = max(Self.chunkSize, count * 2)
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        chunks.append((chunk, size))
        used = count
        return chunk
    }
}
