import Foundation
import LuaBridge
import StoreCore

/// One value `storerules diff` tries on its base scenarios, one dimension at a time: a storefront,
/// a locale or an environment of the context, an attribute, an event's history or a balance of
/// the customer, drawn from the constants of the two policies and their tests.
enum PolicyDiffVariation {
    /// `ctx.storefront`.
    case storefront(String)
    /// `ctx.locale`.
    case locale(String)
    /// `ctx.environment`.
    case environment(PolicyContext.Environment)
    /// `ctx.customer.attributes[name] = value`.
    case attribute(String, LuaValue)
    /// `ctx.customer.events[name]` happened `count` times, a day apart, the latest a day ago.
    case eventCount(String, Int)
    /// `ctx.customer.events[name]` happened once, `seconds` before `ctx.now`.
    case eventAge(String, seconds: Int)
    /// `ctx.customer.balances[item] = amount`.
    case balance(String, Int)

    /// The most values tried in one dimension: the storefronts, the locales, each event's
    /// counts and its ages, each item's balances, and each attribute's strings and its numbers.
    static let valueLimit = 100
    /// The most attribute names, and the most event names, tried.
    static let nameLimit = 20
    /// The oldest age an event is given, in seconds: a hundred years.
    static let oldestAge = 3_155_760_000

    /// Gives `context` this variation's value.
    func apply(to context: inout PolicyContext) {
        switch self {
        case .storefront(let storefront): context.storefront = storefront
        case .locale(let locale): context.locale = locale
        case .environment(let environment): context.environment = environment
        case .attribute(let name, let value): context.customer.attributes[name] = value
        case .eventCount(let name, let count):
            let times = (0..<min(count, EventSummary.recentLimit)).map { context.now.addingTimeInterval(-Double($0 + 1) * 86_400) }
            context.customer.events[name] = EventHistory(count: count, recent: times)
        case .eventAge(let name, let seconds):
            context.customer.events[name] = EventHistory(count: 1, recent: [context.now.addingTimeInterval(-Double(seconds))])
        case .balance(let item, let amount): context.customer.balances[item] = amount
        }
    }

    /// Every variation the constants call for, on scenarios at `storefronts` whose customers
    /// may hold `items`: storefronts (constants of three capital letters), locales (constants
    /// shaped as `fr`, `fr_FR`, `pt-BR`), the other environments, each attribute name with every
    /// string, number, `true` and `false`, each event name with every positive whole number as a
    /// count and as an age in seconds (up to a hundred years; an event that never happened has
    /// no entry, as the base customers), each item with every positive whole number as a balance.
    static func all(from constants: PolicyConstants, storefronts: [String], items: [String], defaultLocale: String) -> [PolicyDiffVariation] {
        let counts = constants.numbers.compactMap(Self.wholeNumber).filter { $0 > 0 }
        let newStorefronts = constants.strings.filter { $0.wholeMatch(of: /[A-Z]{3}/) != nil && !storefronts.contains($0) }
        let locales = constants.strings.filter { $0.wholeMatch(of: /[a-z]{2,3}([_-][A-Za-z0-9]{2,8})*/) != nil && $0 != defaultLocale }
        let attributeValues = constants.strings.prefix(valueLimit).map(LuaValue.string) + constants.numbers.prefix(valueLimit)
            + [.boolean(true), .boolean(false)]
        var variations = newStorefronts.prefix(valueLimit).map(storefront) + locales.prefix(valueLimit).map(locale)
        variations += PolicyContext.Environment.allCases.filter { $0 != .xcode }.map(environment)
        for name in constants.attributeNames.prefix(nameLimit) {
            variations += attributeValues.map { attribute(name, $0) }
        }
        for name in constants.eventNames.prefix(nameLimit) {
            variations += counts.prefix(valueLimit).map { eventCount(name, $0) }
            variations += counts.filter { $0 <= oldestAge }.prefix(valueLimit).map { eventAge(name, seconds: $0) }
        }
        for item in items {
            variations += counts.prefix(valueLimit).map { balance(item, $0) }
        }
        return variations
    }

    /// The number as an `Int` when it is whole.
    private static func wholeNumber(_ value: LuaValue) -> Int? {
        switch value {
        case .integer(let integer): return Int(exactly: integer)
        case .number(let number) where number.rounded() == number: return Int(exactly: number)
        default: return nil
        }
    }
}
