import Foundation

/// Signed payloads compared field by field as JSON, so that a field one decoder drops or
/// changes shows, rather than two decodings through one Swift type agreeing by construction.
public enum JSONFieldComparison {
    /// Whether two JSON values serialize the same.
    public static func sameJSON(_ lhs: Any, _ rhs: Any) -> Bool {
        let serialize = { (value: Any) in try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]) }
        return serialize(lhs).map { $0 == serialize(rhs) } ?? false
    }

    /// The paths of the fields of `signed` that `decoded` lacks or holds with another value
    /// (objects compared member by member; `decoded` may hold more).
    public static func mismatches(_ signed: [String: Any], in decoded: [String: Any], path: String = "") -> [String] {
        signed.keys.sorted().flatMap { key -> [String] in
            let here = path.isEmpty ? key : "\(path).\(key)"
            switch (signed[key], decoded[key]) {
            case let (inner as [String: Any], decodedInner as [String: Any]):
                return mismatches(inner, in: decodedInner, path: here)
            case let (value?, decodedValue?) where sameJSON(value, decodedValue):
                return []
            default:
                return [here]
            }
        }
    }

    /// The JSON object in `data`; empty when it is not one.
    public static func object(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
