import LuaBridge
import Foundation
import StorePolicy

/// One request line, read in one pass: the id comes out even when the rest of the request is
/// wrong, so the error can be matched to its request.
public struct RequestLine: Decodable {
    /// The request's id; nil when the line has none (or one of the wrong type).
    public var id: JSONLineRequestID?
    /// The operation, or why the line does not ask for a valid one.
    public var operation: Result<ServiceRequest, ServiceError>

    /// The operations, as `"op"` names them.
    private enum Name: String, CaseIterable {
        case storefront, ingestTransaction = "ingest_transaction", ingestNotification = "ingest_notification"
        case entitlements, registerCustomer = "register_customer", recordEvent = "record_event", decide
        case retryUnfinished = "retry_unfinished"
        case policy, reload

        /// The fields the operation takes, besides `id` and `op`.
        var fields: Set<String> {
            switch self {
            case .storefront: ["customer", "placement"]
            case .ingestTransaction: ["customer", "jws"]
            case .ingestNotification: ["jws", "customer"]
            case .entitlements: ["customer"]
            case .registerCustomer: ["customer", "app_account_token"]
            case .recordEvent: ["customer", "name", "placement"]
            case .decide: ["hook", "ctx", "customer", "args", "trace"]
            case .retryUnfinished, .policy, .reload: []
            }
        }

        static let list = allCases.map(\.rawValue).joined(separator: ", ")
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }

    /// Throws only when the line is not a JSON object; every other problem is kept in
    /// ``operation``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let id = try? container.decodeIfPresent(JSONLineRequestID.self, forKey: Key("id"))
        self.id = id
        operation = Result { () throws(ServiceError) -> ServiceRequest in
            guard container.contains(Key("id")) else { throw .badRequest(#"every request needs an "id" (a string or an integer)"#) }
            guard id != nil else { throw .badRequest(#""id" must be a string or an integer"#) }
            return try Self.operation(in: container)
        }
    }

    private static func operation(in container: KeyedDecodingContainer<Key>) throws(ServiceError) -> ServiceRequest {
        func string(_ name: String) throws(ServiceError) -> String? {
            do {
                return try container.decodeIfPresent(String.self, forKey: Key(name))
            } catch {
                throw .badRequest(#""\#(name)" must be a string"#)
            }
        }
        guard let op = try string("op") else { throw .badRequest(#"missing "op": one of \#(Name.list)"#) }
        guard let name = Name(rawValue: op) else { throw .badRequest(#"unknown op "\#(op)"; known: \#(Name.list)"#) }
        let allowed = name.fields.union(["id", "op"])
        if let stray = container.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
            let takes = name.fields.isEmpty ? "no other fields" : name.fields.sorted().joined(separator: ", ")
            throw .badRequest(#"unknown field "\#(stray)"; \#(op) takes \#(takes)"#)
        }
        func required(_ name: String) throws(ServiceError) -> String {
            guard let value = try string(name), !value.isEmpty else {
                throw .badRequest(#"\#(op) needs "\#(name)": a non-empty string"#)
            }
            return value
        }
        switch name {
        case .storefront:
            return .storefront(customerID: try required("customer"), placement: try string("placement") ?? "store")
        case .ingestTransaction:
            return .ingestTransaction(customerID: try required("customer"), jws: try required("jws"))
        case .ingestNotification:
            let customerID = try string("customer")
            guard customerID != "" else { throw .badRequest(#""customer", when given, must not be empty"#) }
            return .ingestNotification(jws: try required("jws"), customerID: customerID)
        case .entitlements:
            return .entitlements(customerID: try required("customer"))
        case .registerCustomer:
            return .registerCustomer(customerID: try required("customer"), appAccountToken: try string("app_account_token"))
        case .recordEvent:
            return .recordEvent(customerID: try required("customer"), name: try required("name"), placement: try string("placement"))
        case .decide:
            return .decide(try decision(in: container, hook: try required("hook")))
        case .retryUnfinished:
            return .retryUnfinished
        case .policy:
            return .policy
        case .reload:
            return .reload
        }
    }

    /// A `decide` request: `ctx` or `customer` (neither: an empty context), `args`, `trace`.
    private static func decision(in container: KeyedDecodingContainer<Key>, hook: String) throws(ServiceError) -> DecisionRequest {
        let subject: DecisionRequest.Subject
        do {
            switch (try container.decodeIfPresent(PolicyContext.self, forKey: Key("ctx")),
                    try container.decodeIfPresent(String.self, forKey: Key("customer"))) {
            case (_?, _?): throw ServiceError.badRequest(#"decide takes "ctx" or "customer", not both"#)
            case (let context?, nil): subject = .context(context)
            case (nil, let customer?): subject = .customer(customer)
            case (nil, nil): subject = .context(PolicyContext())
            }
            let arguments = try container.decodeIfPresent([LuaValue].self, forKey: Key("args")) ?? []
            let traced = try container.decodeIfPresent(Bool.self, forKey: Key("trace")) ?? false
            return DecisionRequest(hook: hook, subject: subject, arguments: arguments, traced: traced)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .badRequest("decide: \(error)")
        }
    }
}
