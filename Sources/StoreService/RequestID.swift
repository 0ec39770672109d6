import Foundation

/// A request's `"id"`: a string or an integer, echoed unchanged in its response.
///
/// Workers answer requests in parallel, so responses can come out of order; the id is how a
/// client matches them.
public enum RequestID: Codable, Sendable, Hashable {
    case integer(Int64)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a string or an integer")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let integer): try container.encode(integer)
        case .string(let string): try container.encode(string)
        }
    }
}
