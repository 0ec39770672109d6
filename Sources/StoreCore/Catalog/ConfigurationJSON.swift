import Foundation

/// Where a value sits in a JSON document, rendered as `subscriptionGroups[0].subscriptions[2].productID`.
///
/// Paths are built as the reader walks and rendered only when a problem is reported.
indirect enum JSONPath: Sendable, CustomStringConvertible {
    /// The document itself.
    case root
    /// A member of an object.
    case key(JSONPath, String)
    /// An element of an array.
    case index(JSONPath, Int)

    /// The path in dotted form; empty for the root.
    var description: String {
        switch self {
        case .root: ""
        case .key(.root, let key): key
        case .key(let parent, let key): "\(parent).\(key)"
        case .index(let parent, let index): "\(parent)[\(index)]"
        }
    }
}

/// A problem found while reading a configuration, before the file name is known to it.
struct ConfigurationReadFailure: Error {
    /// Where the problem is.
    let path: JSONPath
    /// What is wrong.
    let problem: CatalogError.Problem
}

/// One JSON value read with `JSONSerialization`, with its path, and typed accessors that report
/// wrong types as ``ConfigurationReadFailure``s.
struct ConfigurationValue {
    /// The value as `JSONSerialization` produced it.
    let raw: Any
    /// Where it sits.
    let path: JSONPath

    /// Parses `data` as a JSON document (any top-level value).
    static func parse(_ data: Data) throws(ConfigurationReadFailure) -> ConfigurationValue {
        do {
            return ConfigurationValue(raw: try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed), path: .root)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw ConfigurationReadFailure(path: .root, problem: .notJSON(reason: reason))
        }
    }

    /// The value as an object.
    func object() throws(ConfigurationReadFailure) -> ConfigurationObject {
        guard let fields = raw as? [String: Any] else { throw wrongType("an object") }
        return ConfigurationObject(fields: fields, path: path)
    }

    /// The value as a string.
    func string() throws(ConfigurationReadFailure) -> String {
        guard let string = raw as? String else { throw wrongType("a string") }
        return string
    }

    /// The value as a boolean.
    func bool() throws(ConfigurationReadFailure) -> Bool {
        guard let number = raw as? NSNumber, number.isJSONBoolean else { throw wrongType("a boolean") }
        return number.boolValue
    }

    /// The value as a whole number (a JSON number without a fractional part).
    func integer() throws(ConfigurationReadFailure) -> Int {
        guard let number = raw as? NSNumber, !number.isJSONBoolean else { throw wrongType("an integer") }
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) < 9_007_199_254_740_992 else { throw wrongType("an integer") }
        return number.intValue
    }

    /// The value as a number.
    func number() throws(ConfigurationReadFailure) -> Double {
        guard let number = raw as? NSNumber, !number.isJSONBoolean else { throw wrongType("a number") }
        return number.doubleValue
    }

    /// The value as an array of values.
    func array() throws(ConfigurationReadFailure) -> [ConfigurationValue] {
        guard let elements = raw as? [Any] else { throw wrongType("an array") }
        return elements.enumerated().map { ConfigurationValue(raw: $0.element, path: .index(path, $0.offset)) }
    }

    /// A failure at this value's path.
    func failure(_ problem: CatalogError.Problem) -> ConfigurationReadFailure {
        ConfigurationReadFailure(path: path, problem: problem)
    }

    private func wrongType(_ expected: String) -> ConfigurationReadFailure {
        failure(.wrongType(expected: expected, found: kindDescription))
    }

    /// The JSON type of the value in words.
    private var kindDescription: String {
        switch raw {
        case is NSNull: "null"
        case is String: "a string"
        case let number as NSNumber: number.isJSONBoolean ? "a boolean" : "a number"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        default: "an unknown value"
        }
    }
}

/// A JSON object with its path. Accessors return `nil` for a key that is absent or `null`, since
/// `.storekit` files write both for "none"; `required…` accessors report those as missing keys.
struct ConfigurationObject {
    /// The members.
    let fields: [String: Any]
    /// Where the object sits.
    let path: JSONPath

    /// The value at `key`, or `nil` when absent or `null`.
    func value(_ key: String) -> ConfigurationValue? {
        guard let raw = fields[key], !(raw is NSNull) else { return nil }
        return ConfigurationValue(raw: raw, path: .key(path, key))
    }

    /// The value at `key`, or a missing-key failure.
    func requiredValue(_ key: String) throws(ConfigurationReadFailure) -> ConfigurationValue {
        guard let value = value(key) else {
            throw ConfigurationReadFailure(path: .key(path, key), problem: .missingKey)
        }
        return value
    }

    /// The string at `key`, if any.
    func string(_ key: String) throws(ConfigurationReadFailure) -> String? { try value(key)?.string() }
    /// The string at `key`.
    func requiredString(_ key: String) throws(ConfigurationReadFailure) -> String { try requiredValue(key).string() }
    /// The boolean at `key`, if any.
    func bool(_ key: String) throws(ConfigurationReadFailure) -> Bool? { try value(key)?.bool() }
    /// The whole number at `key`, if any.
    func integer(_ key: String) throws(ConfigurationReadFailure) -> Int? { try value(key)?.integer() }
    /// The number at `key`, if any.
    func number(_ key: String) throws(ConfigurationReadFailure) -> Double? { try value(key)?.number() }
    /// The object at `key`, if any.
    func object(_ key: String) throws(ConfigurationReadFailure) -> ConfigurationObject? { try value(key)?.object() }

    /// The elements of the array at `key`, each of which must be an object; empty when absent.
    func objects(_ key: String) throws(ConfigurationReadFailure) -> [ConfigurationObject] {
        guard let elements = try value(key)?.array() else { return [] }
        var objects: [ConfigurationObject] = []
        objects.reserveCapacity(elements.count)
        for element in elements { objects.append(try element.object()) }
        return objects
    }
}

private extension NSNumber {
    /// Whether `JSONSerialization` made this number from `true` or `false`.
    var isJSONBoolean: Bool {
        self === NSNumber(value: true) || self === NSNumber(value: false)
    }
}
