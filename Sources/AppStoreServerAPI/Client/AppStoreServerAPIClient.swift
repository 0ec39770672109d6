import Foundation
import StoreCore

/// A client of Apple's App Store Server API: every endpoint Apple's server libraries implement,
/// authenticated with an ES256 JWT, retried where Apple says a failure may pass, and every
/// signed item in an answer verified by a ``SignedData/SignedDataVerifier`` before anything
/// reads it.
///
/// Safe to share between tasks and threads.
public final class AppStoreServerAPIClient: Sendable {
    /// Where requests go: Apple's server for the environment, or the local store's `api`.
    public let baseURL: URL
    /// The tokens requests carry.
    public let tokens: AuthenticationTokenIssuer
    /// The verifier of every signed item answered.
    public let verifier: SignedDataVerifier
    /// What carries requests.
    public let transport: any AppStoreServerAPITransport
    /// How failed requests are tried again.
    public let retry: Backoff

    /// The `User-Agent` every request carries.
    public static let userAgent = "storerules-app-store-server-api"

    /// A client for the app the verifier checks (its bundle identifier signs every token).
    ///
    /// - Parameters:
    ///   - key: The App Store Connect API key (`.p8`, key id, issuer id).
    ///   - verifier: Verifies what the API answers; its bundle identifier and environment are
    ///     the app's.
    ///   - baseURL: Where to send requests; Apple's server for the verifier's environment when nil.
    /// - Throws: ``AppStoreServerAPIError/invalidArgument(_:)`` when no base URL is given for an
    ///   environment Apple serves no API for.
    public init(key: AppStoreServerAPIKey, verifier: SignedDataVerifier, baseURL: URL? = nil,
                transport: any AppStoreServerAPITransport = URLSessionTransport(), retry: Backoff = .appStoreServerAPI,
                tokenLifetime: TimeInterval = 5 * 60) throws(AppStoreServerAPIError) {
        guard let url = baseURL ?? AppStoreServerAPIBaseURL.apple(for: verifier.environment) else {
            throw .invalidArgument("Apple serves no App Store Server API for the \(verifier.environment) environment: give its base URL")
        }
        self.baseURL = url
        self.verifier = verifier
        self.transport = transport
        self.retry = retry
        tokens = AuthenticationTokenIssuer(key: key, bundleID: verifier.bundleId, lifetime: tokenLifetime)
    }

    // MARK: - Sending

    /// Sends `endpoint`'s request, retrying as ``retry`` allows, and returns the successful
    /// answer's body.
    func send(_ endpoint: AppStoreServerAPIEndpoint, query: [AppStoreServerAPIRequest.QueryItem] = [],
              body: (some Encodable)? = Optional<Never>.none) async throws(AppStoreServerAPIError) -> Data {
        for segment in endpoint.segments where segment.isEmpty {
            throw .invalidArgument("\(endpoint.name) needs a non-empty id")
        }
        var request = AppStoreServerAPIRequest(method: endpoint.method, path: endpoint.path, queryItems: query)
        if let body {
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                request.body = try encoder.encode(body)
            } catch {
                throw .invalidArgument("the body of \(endpoint.name) cannot be written as JSON: \(error)")
            }
        }
        var attempt = 1
        while true {
            let failure: AppStoreServerAPIError
            var retryAfter: String?
            do {
                let response = try await transport.send(request, to: baseURL, headers: try requestHeaders())
                if (200..<300).contains(response.status) { return response.body }
                failure = Self.failure(of: response)
                retryAfter = response.header("Retry-After")
            } catch {
                failure = error
            }
            guard failure.isRetryable, retry.allowsRetry(after: attempt) else { throw failure }
            do {
                try await Task.sleep(for: retry.delay(beforeRetry: attempt, retryAfter: retryAfter))
            } catch {
                throw .transport("cancelled while waiting to retry after: \(failure)")
            }
            attempt += 1
        }
    }

    /// The headers every request carries: a valid bearer token, `Accept` and ``userAgent``.
    func requestHeaders() throws(AppStoreServerAPIError) -> [String: String] {
        ["Authorization": "Bearer \(try tokens.token())", "Accept": "application/json", "User-Agent": Self.userAgent]
    }

    /// The error a failed answer carries: Apple's code and message when its body is their JSON.
    static func failure(of response: AppStoreServerAPIResponse) -> AppStoreServerAPIError {
        let isJSON = response.header("Content-Type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
            .lowercased() == "application/json"
        guard isJSON, let body = try? JSONDecoder().decode(ErrorResponse.self, from: response.body) else {
            return .api(status: response.status, code: nil, message: nil)
        }
        return .api(status: response.status, code: APIErrorCode(rawValue: body.errorCode), message: body.errorMessage)
    }

    /// `body` decoded as `type`, the answer of `endpoint`.
    func decode<Answer: Decodable>(_ type: Answer.Type, from body: Data, of endpoint: AppStoreServerAPIEndpoint) throws(AppStoreServerAPIError) -> Answer {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw .malformedResponse(endpoint: endpoint.name, reason: DecodingFailure.summary(of: error))
        }
    }

    /// Sends `endpoint`'s request and decodes its answer as `type`.
    func call<Answer: Decodable>(_ endpoint: AppStoreServerAPIEndpoint, query: [AppStoreServerAPIRequest.QueryItem] = [],
                                 body: (some Encodable)? = Optional<Never>.none, answer type: Answer.Type) async throws(AppStoreServerAPIError) -> Answer {
        try decode(type, from: try await send(endpoint, query: query, body: body), of: endpoint)
    }

    // MARK: - Verifying

    /// The signed transaction verified.
    func verifiedTransaction(_ jws: String) throws(AppStoreServerAPIError) -> VerifiedTransaction {
        do {
            return VerifiedTransaction(jwsRepresentation: jws, payload: try verifier.verifyAndDecodeTransaction(jws))
        } catch {
            throw .verification(error)
        }
    }

    /// The signed renewal info verified.
    func verifiedRenewalInfo(_ jws: String) throws(AppStoreServerAPIError) -> VerifiedRenewalInfo {
        do {
            return VerifiedRenewalInfo(jwsRepresentation: jws, payload: try verifier.verifyAndDecodeRenewalInfo(jws))
        } catch {
            throw .verification(error)
        }
    }

    /// The signed notification verified.
    func verifiedNotification(_ jws: String) throws(AppStoreServerAPIError) -> VerifiedSignedData<ResponseBodyV2DecodedPayload> {
        do {
            return VerifiedSignedData(jwsRepresentation: jws, payload: try verifier.verifyAndDecodeNotification(jws))
        } catch {
            throw .verification(error)
        }
    }

    /// Every signed transaction verified, in order: one that fails fails them all.
    func verifiedTransactions(_ signed: [String]?) throws(AppStoreServerAPIError) -> [VerifiedTransaction] {
        var verified: [VerifiedTransaction] = []
        for jws in signed ?? [] { verified.append(try verifiedTransaction(jws)) }
        return verified
    }
}
