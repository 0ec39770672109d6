import AppStoreServerAPI
import Foundation
import StoreCore

/// The App Store Server API, served by a ``LocalStore`` over its own customers and data and
/// signed with its chain, so a client — StoreRules' own or Apple's — runs against it exactly as
/// against Apple.
///
/// Tokens are checked as Apple checks them (``AuthenticationTokenVerifier``, by the wall clock,
/// not the store's); failures are Apple's `{"errorCode", "errorMessage"}` with `Content-Type:
/// application/json`; lists come in pages of ``pageSize``. The transport is the caller's: this
/// type maps one request to one answer.
public final class LocalStoreAPI: Sendable {
    /// The store served.
    public let store: LocalStore
    /// How many items a page holds, as Apple's pages.
    public static let pageSize = 20

    /// Serves `store`'s API.
    public init(store: LocalStore) {
        self.store = store
    }

    /// The answer to `request`, whose path and query are as sent (percent escapes kept),
    /// carrying `authorization` (the `Authorization` header's value).
    ///
    /// Every answer's `Date` is the store's clock, which may run ahead of the wall clock, so a
    /// client windows its requests in the store's time.
    public func respond(to request: AppStoreServerAPIRequest, authorization: String?) -> AppStoreServerAPIResponse {
        var answer = answer(to: request, authorization: authorization)
        if let now = try? store.currentTime() { answer.headers["date"] = HTTPDateHeader.text(now) }
        return answer
    }

    private func answer(to request: AppStoreServerAPIRequest, authorization: String?) -> AppStoreServerAPIResponse {
        let verifier: AuthenticationTokenVerifier
        do {
            verifier = try store.serverAPITokenVerifier()
        } catch {
            return Self.failure(ServerAPIFailure(500, .generalInternal, "the store's keys cannot be read: \(error)"))
        }
        if case .failure = verifier.verify(authorization: authorization) {
            return AppStoreServerAPIResponse(status: 401, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                             body: Data("Unauthenticated\n".utf8))
        }
        do {
            let (endpoint, query) = try Self.route(request)
            return try answer(endpoint, query: query, body: request.body ?? Data())
        } catch let failure as ServerAPIFailure {
            return Self.failure(failure)
        } catch {
            return Self.failure(ServerAPIFailure(500, .generalInternal, "\(error)"))
        }
    }

    /// The endpoint and decoded query of a request, or Apple's `404` for a path it does not serve.
    static func route(_ request: AppStoreServerAPIRequest) throws -> (AppStoreServerAPIEndpoint, QueryArguments) {
        let rawSegments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard rawSegments.first == "inApps" else {
            throw ServerAPIFailure.notFound(.generalBadRequest, "no endpoint at \(request.path)")
        }
        var segments: [String] = []
        for raw in rawSegments.dropFirst() {
            guard let decoded = try? PercentDecoding.decode(raw, allowsSlash: true), !decoded.isEmpty else {
                throw ServerAPIFailure.badRequest(.generalBadRequest, "the path segment '\(raw)' is empty or not percent-encoded UTF-8")
            }
            segments.append(decoded)
        }
        guard let endpoint = AppStoreServerAPIEndpoint(method: request.method, segments: segments) else {
            throw ServerAPIFailure.notFound(.generalBadRequest, "no endpoint \(request.method) \(request.path)")
        }
        var query = QueryArguments()
        for item in request.queryItems {
            guard let name = try? PercentDecoding.decode(item.name[...], allowsSlash: true),
                  let value = try? PercentDecoding.decode(item.value[...], allowsSlash: true) else {
                throw ServerAPIFailure.badRequest(.generalBadRequest, "the query item '\(item.name)' is not percent-encoded UTF-8")
            }
            query.items.append((name, value))
        }
        return (endpoint, query)
    }

    private func answer(_ endpoint: AppStoreServerAPIEndpoint, query: QueryArguments, body: Data) throws -> AppStoreServerAPIResponse {
        switch endpoint {
        case .transactionInfo(let id):
            return Self.json(TransactionInfoResponse(signedTransactionInfo: try store.apiTransaction(id).record.jws))
        case .transactionHistory(_, let id):
            return Self.json(try transactionHistory(id, query: query))
        case .subscriptionStatuses(let id):
            return Self.json(try subscriptionStatuses(id, query: query))
        case .refundHistory(let id):
            return Self.json(try refundHistory(id, query: query))
        case .orderLookup(let orderID):
            let transactions = try store.apiOrder(orderID)
            return Self.json(OrderLookupResponse(status: transactions.isEmpty ? 1 : 0, signedTransactions: transactions.map(\.record.jws)))
        case .consumption(let version, let id):
            try store.recordConsumption(version: version, transactionID: id, body: body)
            return AppStoreServerAPIResponse(status: 202)
        case .extendRenewalDate(let id):
            return Self.json(try store.extendRenewalDate(originalTransactionID: id, try Self.decode(ExtendRenewalDateRequest.self, from: body)))
        case .massExtendRenewalDate:
            let request = try Self.decode(MassExtendRenewalDateRequest.self, from: body)
            try store.extendRenewalDateForAllActiveSubscribers(request)
            return Self.json(MassExtendRenewalDateResponse(requestIdentifier: request.requestIdentifier))
        case .massExtendStatus(let productID, let requestIdentifier):
            guard let status = try store.massExtensionStatus(productID: productID, requestIdentifier: requestIdentifier) else {
                throw ServerAPIFailure.notFound(.statusRequestNotFound, "no mass extension \(requestIdentifier) of \(productID)")
            }
            return Self.json(status)
        case .requestTestNotification:
            return Self.json(SendTestNotificationResponse(testNotificationToken: try store.sendTestNotification()))
        case .testNotificationStatus(let token):
            guard let signed = try store.testNotification(token) else {
                throw ServerAPIFailure.notFound(.testNotificationNotFound, "no test notification \(token)")
            }
            let attempts = try store.sendAttempts(testToken: token.lowercased()).map { SendAttemptItem(attemptDate: $0.date, sendAttemptResult: $0.result) }
            return Self.json(CheckTestNotificationResponse(signedPayload: signed, sendAttempts: attempts))
        case .notificationHistory:
            return Self.json(try notificationHistory(try Self.decode(NotificationHistoryRequest.self, from: body), query: query))
        case .setAppAccountToken(let id):
            try store.setAppAccountToken(try Self.decode(UpdateAppAccountTokenRequest.self, from: body).appAccountToken, originalTransactionID: id)
            return AppStoreServerAPIResponse(status: 200)
        case .appTransactionInfo(let id):
            return Self.json(AppTransactionInfoResponse(signedAppTransactionInfo: try store.signedAppTransaction(for: id)))
        }
    }

    // MARK: - Bodies

    static func decode<Body: Decodable>(_ type: Body.Type, from body: Data) throws -> Body {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw ServerAPIFailure.badRequest(.generalBadRequest, "the body is not a \(type): \(DecodingFailure.summary(of: error))")
        }
    }

    static func json(_ value: some Encodable) -> AppStoreServerAPIResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else {
            return failure(ServerAPIFailure(500, .generalInternal, "the answer cannot be written as JSON"))
        }
        return AppStoreServerAPIResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }

    static func failure(_ failure: ServerAPIFailure) -> AppStoreServerAPIResponse {
        let body = (try? JSONEncoder().encode(ErrorResponse(errorCode: failure.code.rawValue, errorMessage: failure.message))) ?? Data()
        return AppStoreServerAPIResponse(status: failure.status, headers: ["Content-Type": "application/json"], body: body)
    }
}
