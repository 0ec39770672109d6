import Foundation

/// The parts of a PolicyService reply line the service load test reads; each part is nil where
/// the line does not have it in the expected form.
struct ServiceReplyLine: Decodable {
    /// What a reply's `result` says, as far as the load test looks.
    struct Result: Decodable {
        /// A reload's new policy version.
        let version: String?
        /// The policy version a reload replaced.
        let previousVersion: String?
        /// An ingest's outcome, such as `granted`.
        let outcome: String?
        /// What an ingest granted.
        let grants: [GrantedItem]?

        private enum CodingKeys: String, CodingKey {
            case version, previousVersion = "previous_version", outcome, grants
        }

        /// Reads each field that has the expected type, and leaves the others nil.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try? container.decode(String.self, forKey: .version)
            previousVersion = try? container.decode(String.self, forKey: .previousVersion)
            outcome = try? container.decode(String.self, forKey: .outcome)
            grants = try? container.decode([GrantedItem].self, forKey: .grants)
        }
    }

    /// One grant of an ingest's result.
    struct GrantedItem: Decodable {
        /// The item granted.
        let item: String?
        /// How many.
        let amount: Int?

        private enum CodingKeys: String, CodingKey {
            case item, amount
        }

        /// Reads the item and the amount where they have the expected type.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            item = try? container.decode(String.self, forKey: .item)
            amount = try? container.decode(Int.self, forKey: .amount)
        }
    }

    /// Whether the line has a `result` (an error reply has none).
    let hasResult: Bool
    /// The result, when it is an object.
    let result: Result?

    private enum CodingKeys: String, CodingKey {
        case result
    }

    /// The reply `line` holds; nil when it is not a JSON object.
    init?(_ line: String) {
        guard let reply = try? JSONDecoder().decode(ServiceReplyLine.self, from: Data(line.utf8)) else { return nil }
        self = reply
    }

    /// Reads the result of a reply.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hasResult = container.contains(.result)
        result = try? container.decode(Result.self, forKey: .result)
    }
}
