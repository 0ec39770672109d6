import Foundation

/// JSON of a shape the command line does not know, such as a body the local App Store received,
/// read and written again as it is: objects, lists, strings, whole and other numbers, true,
/// false and null.
enum PassedThroughJSON: Codable, Equatable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([PassedThroughJSON])
    case object([String: PassedThroughJSON])

    /// The JSON `data` holds, or nil when it is not JSON.
    init?(parsing data: Data) {
        guard let value = try? JSONDecoder().decode(PassedThroughJSON.self, from: data) else { return nil }
        self = value
    }

    /// Reads any JSON value.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else if let whole = try? container.decode(Int64.self) {
            self = .integer(whole)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([PassedThroughJSON].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: PassedThroughJSON].self))
        }
    }

    /// Writes the value back.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .boolean(let flag): try container.encode(flag)
        case .integer(let whole): try container.encode(whole)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        case .object(let fields): try container.encode(fields)
        }
    }
}
