import Foundation
import StoreCore
import StoreService

extension RouterTestService {
    /// The router's answer to a request whose body is `object` as JSON, as `key`.
    func respond(_ method: String, _ path: String, json object: Any, headers: [String: String] = [:],
                 key: String? = RouterTestService.appKey) throws -> HTTPResponse {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        return respond(method, path, headers: headers, key: key, body: body)
    }

    /// `payload` signed by the authority this service trusts.
    func sign<Payload: SignedPayload>(_ payload: Payload) throws -> String {
        try authority.sign(payload)
    }
}

extension HTTPResponse {
    /// The message of an error body.
    var errorMessage: String? {
        (object["error"] as? [String: Any])?["message"] as? String
    }
}
