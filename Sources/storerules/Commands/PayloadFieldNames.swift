import Foundation

/// The names of the fields of a signed payload's JSON object, read before verification to tell
/// which kind of signed data it is.
struct PayloadFieldNames: Decodable {
    /// Every field name the object has, whatever its value (`null` included).
    let names: Set<String>

    /// The field names of the JSON object `payload` holds; nil when it holds no JSON object.
    init?(of payload: Data) {
        guard let read = try? JSONDecoder().decode(PayloadFieldNames.self, from: payload) else { return nil }
        self = read
    }

    /// Reads the names of an object's fields.
    init(from decoder: any Decoder) throws {
        names = Set(try decoder.container(keyedBy: FieldName.self).allKeys.map(\.stringValue))
    }

    /// Whether the object has a field named `name`.
    func contains(_ name: String) -> Bool { names.contains(name) }

    /// Any field name.
    private struct FieldName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
