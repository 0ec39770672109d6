/// Why a `.storekit` file could not be loaded: the file, where in it (a JSON path such as
/// `subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod`), and what is wrong there.
///
/// A malformed file gets exactly one error, the first problem found. Its description reads
/// `Products.storekit: subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod: "P1Q" is not an ISO 8601 period`.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        /// The file could not be read.
        case unreadableFile(reason: String)
        /// The content is not JSON.
        case notJSON(reason: String)
        /// A required key is absent.
        case missingKey
        /// A value has the wrong JSON type; both are described in words ("a string", "a number" …).
        case wrongType(expected: String, found: String)
        /// A value is not one of the words allowed there; `kind` names what was expected ("product type").
        case unknownValue(String, kind: String, allowed: [String])
        /// An integer that must be at least 1 is not.
        case notPositive(Int)
        /// An integer is not among the values allowed there, described in words ("1 to 24").
        case outOfRange(Int, allowed: String)
        /// `_timeRate` or `_compatibilityTimeRate` is not a raw value of `SKTestSession.TimeRate`.
        case unknownTimeRate(Int)
        /// A price is not digits with an optional decimal point.
        case invalidPrice(String)
        /// A period is not ISO 8601.
        case invalidPeriod(String)
        /// A period is ISO 8601 but not a positive whole number of days, weeks, months or years.
        case unsupportedPeriod(String)
        /// A product identifier is used a second time; `firstPath` is where it first appears.
        case duplicateProductID(String, firstPath: String)
        /// A subscription group identifier is used a second time; `firstPath` is where it first appears.
        case duplicateSubscriptionGroupID(String, firstPath: String)
        /// A subscription's `subscriptionGroupID` is not the id of the group that holds it.
        case subscriptionGroupMismatch(found: String, groupID: String)
        /// A key that must be Base64 is not.
        case invalidBase64

        /// The problem in words.
        public var description: String {
            switch self {
            case .unreadableFile(let reason): "cannot be read (\(reason))"
            case .notJSON(let reason): "is not valid JSON (\(reason))"
            case .missingKey: "required key is missing"
            case .wrongType(let expected, let found): "expected \(expected), found \(found)"
            case .unknownValue(let value, let kind, let allowed):
                "\(quoted(value)) is not a valid \(kind) (expected \(Self.listed(allowed)))"
            case .notPositive(let value): "expected a positive integer, found \(value)"
            case .outOfRange(let value, let allowed): "expected \(allowed), found \(value)"
            case .unknownTimeRate(let value): "\(value) is not a known time rate"
            case .invalidPrice(let value): "\(quoted(value)) is not a decimal price"
            case .invalidPeriod(let value): "\(quoted(value)) is not an ISO 8601 period"
            case .unsupportedPeriod(let value):
                "\(quoted(value)) is not a subscription period (a positive number of days, weeks, months or years)"
            case .duplicateProductID(let id, let firstPath): "duplicate product id \(quoted(id)) (first at \(firstPath))"
            case .duplicateSubscriptionGroupID(let id, let firstPath):
                "duplicate subscription group id \(quoted(id)) (first at \(firstPath))"
            case .subscriptionGroupMismatch(let found, let groupID):
                "\(quoted(found)) disagrees with its group's id \(quoted(groupID))"
            case .invalidBase64: "is not valid Base64"
            }
        }

        /// "a, b or c".
        private static func listed(_ words: [String]) -> String {
            guard words.count > 1 else { return words.first ?? "" }
            return words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
        }
    }

    /// The name of the file, such as "Products.storekit".
    public let fileName: String
    /// Where in the JSON the problem is, such as `products[1].productID`; empty for the whole document.
    public let path: String
    /// What is wrong.
    public let problem: Problem

    /// Creates an error.
    public init(fileName: String, path: String, problem: Problem) {
        self.fileName = fileName
        self.path = path
        self.problem = problem
    }

    /// "file: path: problem", or "file: problem" for the whole document.
    public var description: String {
        path.isEmpty ? "\(fileName): \(problem)" : "\(fileName): \(path): \(problem)"
    }
}

/// A string in double quotes, with quotes and backslashes inside escaped as JSON does.
private func quoted(_ text: String) -> String {
    var escaped = "\""
    for character in text {
        if character == "\"" || character == "\\" { escaped.append("\\") }
        escaped.append(character)
    }
    return escaped + "\""
}
