import Foundation
import LuaBridge

/// Everything a hook knows about the moment it decides in: `ctx` in Lua.
///
/// The catalog (`ctx.catalog`) is not part of this value: the engine adds it from the
/// catalog it was created with, once per Lua state, read-only.
public struct PolicyContext: Sendable, Equatable, Codable {
    /// Where the purchase data comes from, as StoreKit's `AppStore.Environment` names it.
    public enum Environment: String, Sendable, Codable, CaseIterable {
        /// StoreKit Testing: the local test store.
        case xcode
        /// The App Store sandbox.
        case sandbox
        /// The App Store.
        case production
    }

    /// The time of the decision (`ctx.now`, epoch seconds in Lua).
    public var now: Date
    /// The storefront's ISO 3166-1 alpha-3 country code, such as "USA".
    public var storefront: String
    /// The locale identifier, such as "en_US".
    public var locale: String
    /// Where the purchase data comes from.
    public var environment: Environment
    /// Who the decision is for.
    public var customer: CustomerContext
    /// Variants a test or an input pins (`experiments` in JSON and in `context{...}`), by
    /// experiment: `ctx.experiments.NAME` reads the pin instead of the assignment, and the read
    /// records no exposure.
    public var experiments: [String: ExperimentPin]

    /// Creates a context.
    public init(now: Date = Date(), storefront: String = "USA", locale: String = "en_US",
                environment: Environment = .xcode, customer: CustomerContext = CustomerContext(),
                experiments: [String: ExperimentPin] = [:]) {
        self.now = now
        self.storefront = storefront
        self.locale = locale
        self.environment = environment
        self.customer = customer
        self.experiments = experiments
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case now, storefront, locale, environment, customer, experiments
    }

    /// Reads a context from JSON bytes as `storerules eval` takes it, whatever the bytes are
    /// (see ``init(from:)``).
    ///
    /// - Throws: ``PolicyInputError`` naming where the input is wrong and why; it never traps.
    public static func decode(json: Data) throws(PolicyInputError) -> PolicyContext {
        try PolicyInputError.decode(PolicyContext.self, from: json)
    }

    /// Reads a context from JSON as `storerules eval` takes it: every field is optional, an
    /// unknown field is refused; `now` is epoch seconds (years 1 to 9999), `environment` any
    /// spelling ``Environment/init(spelling:)`` accepts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        now = try container.decodeEpochSecondsIfPresent(forKey: .now) ?? Date()
        storefront = try container.decodeIfPresent(String.self, forKey: .storefront) ?? "USA"
        locale = try container.decodeIfPresent(String.self, forKey: .locale) ?? "en_US"
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment) ?? .xcode
        customer = try container.decodeIfPresent(CustomerContext.self, forKey: .customer) ?? CustomerContext()
        experiments = try container.decodeIfPresent([String: ExperimentPin].self, forKey: .experiments) ?? [:]
    }

    /// Writes the context as JSON, `now` as epoch seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(EpochSeconds.whole(now), forKey: .now)
        try container.encode(storefront, forKey: .storefront)
        try container.encode(locale, forKey: .locale)
        try container.encode(environment, forKey: .environment)
        try container.encode(customer, forKey: .customer)
        if !experiments.isEmpty { try container.encode(experiments, forKey: .experiments) }
    }
}
