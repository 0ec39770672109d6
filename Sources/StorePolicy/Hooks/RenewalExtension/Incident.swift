import Foundation
import LuaBridge

/// An outage or other incident a business compensates subscribers for: the `incident`
/// argument of `renewal_extension(ctx, subscription, incident)`, read from an incident file.
///
/// The file: `{"start": "2026-11-30T08:00:00Z", "end": "2026-11-30T20:30:00Z", "reason":
/// "checkout outage", "products": ["pass.premium"], "storefronts": ["USA", "CAN"]}` — times in
/// ISO 8601, `products` and `storefronts` optional (every one when left out). In Lua: `{ start,
/// ["end"], reason, products, storefronts }`, times in epoch seconds, the lists nil when the
/// file has none.
public struct Incident: Sendable, Equatable, Codable {
    /// When the incident began.
    public var start: Date
    /// When it ended.
    public var end: Date
    /// What happened, in the business's words.
    public var reason: String
    /// The products whose subscribers it touched; nil for every product.
    public var products: [String]?
    /// The storefronts (ISO 3166-1 alpha-3) it touched; nil for every storefront.
    public var storefronts: [String]?

    /// An incident.
    public init(start: Date, end: Date, reason: String, products: [String]? = nil, storefronts: [String]? = nil) {
        self.start = start
        self.end = end
        self.reason = reason
        self.products = products
        self.storefronts = storefronts
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case start, end, reason, products, storefronts
    }

    /// Reads an incident file, whatever its bytes.
    ///
    /// - Throws: ``PolicyInputError`` naming the field that is wrong: a missing `start`, `end`
    ///   or `reason`, a time that is not ISO 8601, an end before the start, an unknown field.
    public static func decode(json: Data) throws(PolicyInputError) -> Incident {
        try PolicyInputError.decode(Incident.self, from: json)
    }

    /// Reads an incident: `start`, `end` (ISO 8601, or epoch seconds as the hook sees them; the
    /// end not before the start) and `reason`
    /// required; `products` and `storefronts` optional lists, each storefront an ISO 3166-1
    /// alpha-3 code in capitals; an unknown field refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        start = try Self.time(container, .start)
        end = try Self.time(container, .end)
        guard end >= start else {
            throw DecodingError.dataCorruptedError(forKey: .end, in: container, debugDescription: "the end is before the start")
        }
        reason = try container.decode(String.self, forKey: .reason)
        products = try container.decodeIfPresent([String].self, forKey: .products)
        storefronts = try container.decodeIfPresent([String].self, forKey: .storefronts)
        for (index, code) in (storefronts ?? []).enumerated()
        where code.count != 3 || !code.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            throw DecodingError.dataCorruptedError(
                forKey: .storefronts, in: container,
                debugDescription: "storefronts[\(index)]: '\(code)' is not an ISO 3166-1 alpha-3 code such as USA, as the App Store writes storefronts")
        }
    }

    /// A time given as ISO 8601 text, or as epoch seconds (as the hook sees it).
    private static func time(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date {
        if let seconds = try? container.decode(Double.self, forKey: key) {
            guard let date = EpochSeconds.date(seconds) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(seconds) seconds is out of range")
            }
            return date
        }
        let text = try container.decode(String.self, forKey: key)
        guard let date = ISO8601DateFormatter().date(from: text)
                ?? (try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)))
        else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                   debugDescription: "'\(text)' is not an ISO 8601 time such as 2026-11-30T08:00:00Z")
        }
        return date
    }

    /// Writes the incident as its file has it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start.formatted(.iso8601), forKey: .start)
        try container.encode(end.formatted(.iso8601), forKey: .end)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(products, forKey: .products)
        try container.encodeIfPresent(storefronts, forKey: .storefronts)
    }

    /// The incident as the hook receives it.
    public var luaValue: LuaValue {
        var fields: [LuaValue: LuaValue] = [
            .string("start"): .integer(EpochSeconds.whole(start)), .string("end"): .integer(EpochSeconds.whole(end)),
            .string("reason"): .string(reason),
        ]
        if let products { fields[.string("products")] = .table(LuaTable(array: products.map(LuaValue.string))) }
        if let storefronts { fields[.string("storefronts")] = .table(LuaTable(array: storefronts.map(LuaValue.string))) }
        return .table(LuaTable(hash: fields))
    }
}
