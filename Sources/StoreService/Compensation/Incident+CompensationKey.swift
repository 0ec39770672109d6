import Foundation
import StoreCore
import StorePolicy

extension Incident {
    /// What the incident means, as bytes that do not depend on how its file was written: JSON
    /// with sorted keys and no whitespace, the times in whole milliseconds since 1970 (whatever
    /// ISO 8601 offset, precision or epoch seconds the file used), the reason in Unicode's
    /// composed form, the products and storefronts sorted without repeats (a list left out stays
    /// left out: it means every one).
    ///
    /// - Throws: `EncodingError`, which text and whole numbers do not cause.
    public var canonicalForm: Data {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(CanonicalIncident(
                start: start.millisecondsSince1970, end: end.millisecondsSince1970, reason: reason.precomposedStringWithCanonicalMapping,
                products: products.map { Array(Set($0)).sorted() }, storefronts: storefronts.map { Array(Set($0)).sorted() }))
        }
    }

    /// The key compensation for the incident is recorded under: the SHA-256 of its
    /// ``canonicalForm``, in lowercase hexadecimal. The same incident saved again with other
    /// indentation, key order, list order or time notation has the same key; another start,
    /// end, reason, product or storefront has another.
    ///
    /// - Throws: what ``canonicalForm`` throws.
    public var compensationKey: String {
        get throws { SHA256Digest.hex(of: try canonicalForm) }
    }
}

/// The fields of ``StorePolicy/Incident/canonicalForm``.
private struct CanonicalIncident: Encodable {
    let start: Int64
    let end: Int64
    let reason: String
    let products: [String]?
    let storefronts: [String]?
}
