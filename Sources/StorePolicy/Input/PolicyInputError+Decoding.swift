import Foundation

extension PolicyInputError {
    /// The input error `error` describes: the path it happened at and what was expected
    /// there, in the decoder's words (``JSONValueDecoder``'s, or Foundation's when a
    /// `JSONDecoder` decoded).
    public init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self = .invalidValue(path: JSONPath.render(context.codingPath), reason: "missing field '\(key.stringValue)'")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            self = .invalidValue(path: JSONPath.render(context.codingPath), reason: underlying ?? context.debugDescription)
        @unknown default:
            self = .invalidValue(path: "", reason: "\(error)")
        }
    }

    /// Decodes a `Value` from JSON bytes, whatever they are: ``JSONValueParser`` reads them,
    /// ``JSONValueDecoder`` decodes the value, and every failure becomes an input error.
    package static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(PolicyInputError) -> Value {
        let value = try JSONValueParser.parse(data)
        do {
            return try JSONValueDecoder.decode(type, from: value)
        } catch let error as PolicyInputError {
            throw error
        } catch let error as DecodingError {
            throw PolicyInputError(error)
        } catch {
            throw PolicyInputError.invalidValue(path: "", reason: "\(error)")
        }
    }
}
