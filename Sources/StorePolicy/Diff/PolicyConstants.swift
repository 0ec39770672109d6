import LuaBridge

/// What two versions of a policy can tell apart, read from their Lua sources and test files by
/// ``LuaLexer``: every string constant (in any quote form, and the keys of table constructors
/// such as `{ FRA = true }`), every number constant with its neighbours, and every attribute and
/// event name the files read or build.
///
/// Constants written in one policy's source and not the other's come first — they are what the
/// change is about — then the others in the order they appear (old policy, new policy, tests).
struct PolicyConstants {
    /// The string constants.
    var strings: [String] = []
    /// The number constants, each as n - 1, n, n + 1, so that a threshold is crossed.
    var numbers: [LuaValue] = []
    /// The names of `ctx.customer.attributes` the files read or their test contexts set.
    var attributeNames: [String] = []
    /// The names of `ctx.customer.events` the files read or their test contexts set.
    var eventNames: [String] = []

    /// The constants of the two policy sources and their test files.
    init(oldSource: String, newSource: String, tests: [String]) {
        let old = PolicyConstantsFound(in: oldSource)
        let new = PolicyConstantsFound(in: newSource)
        let found = [old, new] + tests.map(PolicyConstantsFound.init)
        strings = Self.changedFirst(found.map(\.strings), changed: Set(old.strings).symmetricDifference(new.strings))
        let numbers = Self.changedFirst(found.map(\.numbers), changed: Set(old.numbers).symmetricDifference(new.numbers))
        self.numbers = Self.unique(numbers.flatMap(Self.neighbourhood))
        attributeNames = Self.changedFirst(found.map(\.attributeNames), changed: Set(old.attributeNames).symmetricDifference(new.attributeNames))
        eventNames = Self.changedFirst(found.map(\.eventNames), changed: Set(old.eventNames).symmetricDifference(new.eventNames))
    }

    /// The values of `lists` without repeats, those in `changed` first, each part in order.
    private static func changedFirst<Value: Hashable>(_ lists: [[Value]], changed: Set<Value>) -> [Value] {
        let all = unique(lists.flatMap { $0 })
        return all.filter(changed.contains) + all.filter { !changed.contains($0) }
    }

    private static func unique<Value: Hashable>(_ values: [Value]) -> [Value] {
        var seen = Set<Value>()
        return values.filter { seen.insert($0).inserted }
    }

    /// `number` - 1, `number`, `number` + 1 (as far as 64-bit integers go).
    private static func neighbourhood(_ number: LuaToken.Number) -> [LuaValue] {
        switch number {
        case .integer(let value):
            return [value.subtractingReportingOverflow(1), (value, false), value.addingReportingOverflow(1)]
                .filter { !$0.overflow }.map { .integer($0.partialValue) }
        case .float(let value) where value.isFinite:
            return [value - 1, value, value + 1].map(LuaValue.number)
        case .float:
            return []
        }
    }
}
