import Foundation
import LuaBridge
import StorePolicy

/// The bodies the routes read. The app's are strict: an unknown field is refused, naming the
/// nearest known one. Apple's notification body takes only `signedPayload` and lets other
/// fields pass, since a field Apple adds later must not make a notification bounce.
enum RequestBodies {
    /// `POST /v1/notifications`: Apple's `ResponseBodyV2`.
    struct Notification: Decodable {
        var signedPayload: String
    }

    /// `POST /v1/transactions`.
    struct Transaction: Decodable {
        var customer: String
        var signedTransaction: String

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case customer, signedTransaction = "signed_transaction"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            customer = try container.decode(String.self, forKey: .customer)
            signedTransaction = try container.decode(String.self, forKey: .signedTransaction)
        }
    }

    /// `PUT /v1/customers/{id}`.
    struct Customer: Decodable {
        var appAccountToken: String?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case appAccountToken = "app_account_token"
        }

        init(from decoder: any Decoder) throws {
            appAccountToken = try decoder.strictContainer(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .appAccountToken)
        }
    }

    /// `POST /v1/customers/{id}/events`.
    struct Event: Decodable {
        var name: String
        var placement: String?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case name, placement
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            placement = try container.decodeIfPresent(String.self, forKey: .placement)
        }
    }

    /// `POST /v1/decisions/{hook}`: a context or a customer, and the arguments after `ctx`.
    struct Decision: Decodable {
        var context: PolicyContext?
        var customer: String?
        var arguments: [LuaValue]

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case context = "ctx", customer, arguments = "args"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            context = try container.decodeIfPresent(PolicyContext.self, forKey: .context)
            customer = try container.decodeIfPresent(String.self, forKey: .customer)
            arguments = try container.decodeIfPresent([LuaValue].self, forKey: .arguments) ?? []
        }
    }

    /// Decodes a body, whatever its bytes; an empty body (or one of white space only) reads as
    /// `{}` when `emptyIsObject`.
    ///
    /// - Throws: ``ServiceError/badRequest(_:)`` saying where the body is wrong.
    static func decode<Body: Decodable>(_ type: Body.Type, from body: Data, emptyIsObject: Bool = false) throws(ServiceError) -> Body {
        let bytes = isBlank(body) && emptyIsObject ? Data("{}".utf8) : body
        do {
            return try PolicyInputError.decode(type, from: bytes)
        } catch {
            throw .badRequest("the body is not what this route takes: \(error.description)")
        }
    }

    /// Whether `body` is empty or white space only.
    static func isBlank(_ body: Data) -> Bool {
        body.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}
