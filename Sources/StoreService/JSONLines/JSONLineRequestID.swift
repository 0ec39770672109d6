import Foundation

/// A JSON-lines request's `"id"`: a string or an integer, echoed unchanged in its response.
///
/// Workers answer requests in parallel, so responses can come out of order; the id is how a
/// client matches them. (An HTTP request's id is its `X-Request-Id` header, another thing.)
public enum JSONLineRequestID: Codable, Sendable, Hashable {
    /// An id written as a JSON integer.
    case integer(Int64)
    /// An id written as a JSON string.
    case string(String)

    /// Reads an id that is a JSON integer or string.
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

    /// Writes the id as it came: an integer or a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let integer): try container.encode(integer)
        case .string(let string): try container.encode(string)
        }
    }
}
