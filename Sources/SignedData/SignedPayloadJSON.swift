import Foundation

/// The JSON coding of App Store signed payloads.
///
/// Dates travel as integer milliseconds since 1970 (`"signedDate": 1698148900000`) and the
/// payload types expose them as `Date`. Use these coders, not plain `JSONEncoder()` and
/// `JSONDecoder()`, to read or write a payload type yourself.
public enum SignedPayloadJSON {
    /// A decoder that reads dates as milliseconds since 1970.
    ///
    /// It accepts integers and also the fractional milliseconds that StoreKit Testing in Xcode
    /// writes (`1697679936049.7297`), kept to the whole millisecond below as Apple's library
    /// reads them; a number of milliseconds outside 64 bits is refused. Fields it does not
    /// know are ignored.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let milliseconds = try? container.decode(Int64.self) {
                return Date(millisecondsSince1970: milliseconds)
            }
            let milliseconds = try container.decode(Double.self)
            guard let whole = Int64(exactly: milliseconds.rounded(.down)) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "A date must be a number of milliseconds that fits in 64 bits.")
            }
            return Date(millisecondsSince1970: whole)
        }
        return decoder
    }

    /// One decoder from ``makeDecoder()``, shared: decoding leaves a decoder unchanged, and
    /// `JSONDecoder` is safe to use from many threads at once.
    static let decoder = makeDecoder()

    /// Decodes `json` as ``makeDecoder()``'s decoder does, with the same result or the same
    /// error.
    ///
    /// Text in the plain subset App Store payloads are written in (``PlainJSON``) is decoded
    /// without `JSONDecoder`, by ``PlainJSONDecoder``; any other text, and any value that
    /// decoder declines, goes to `JSONDecoder`.
    public static func decode<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value {
        if let plain = PlainJSON(parsing: json), let value = PlainJSONDecoder.decode(type, from: plain) {
            return value
        }
        return try decoder.decode(type, from: json)
    }

    /// An encoder that writes dates as whole milliseconds since 1970, with sorted keys and
    /// unescaped slashes, so the same payload always encodes to the same bytes.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.millisecondsSince1970)
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension Date {
    /// Creates a date from milliseconds since 1970, the form App Store payloads use.
    public init(millisecondsSince1970: Int64) {
        self.init(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
    }

    /// This date as whole milliseconds since 1970, rounded to the nearest millisecond; a date
    /// too far from 1970 for 64 bits of milliseconds gives the nearest 64-bit value.
    public var millisecondsSince1970: Int64 {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return milliseconds.isNaN ? 0 : (milliseconds > 0 ? .max : .min) }
        return Int64(exactly: milliseconds) ?? (milliseconds > 0 ? .max : .min)
    }
}
