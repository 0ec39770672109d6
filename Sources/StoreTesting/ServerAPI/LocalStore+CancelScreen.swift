import AppStoreServerAPI
import Foundation
import StoreCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LocalStore {
    /// How long the store waits for the retention server, as Apple does in production: 700 ms.
    public static let retentionTimeout: TimeInterval = 0.7

    /// Where the store asks for retention messages, as App Store Connect's real-time URL, or nil.
    public func retentionURL() throws -> URL? {
        try state.read { connection in
            try connection.fetchValue(String.self, "SELECT value FROM local_store_text_setting WHERE name = 'retentionURL'")
                .flatMap(URL.init(string:))
        }
    }

    /// Sets (or, with nil, clears) the real-time URL retention messages are asked from.
    public func setRetentionURL(_ url: URL?) throws {
        try setURLSetting("retentionURL", to: url)
    }

    /// The subscriber of `transactionID`'s subscription opens the cancel screen: the store signs
    /// a real-time request, posts it to the retention URL and shows what Apple would — the
    /// server's message when its answer is valid (a promotional offer only with a signature
    /// made by a key the store issued, for this subscription's product and one of its offers),
    /// else the default message, saying why.
    ///
    /// - Throws: ``LocalStoreError`` when the transaction is no active subscription or no
    ///   retention URL is set.
    public func openCancelScreen(transactionID: String) throws -> CancelScreen {
        guard let url = try retentionURL() else {
            throw LocalStoreError.noRetentionURL
        }
        let transaction = try apiTransaction(transactionID).record
        guard transaction.productType == .autoRenewable,
              let subscription = try apiSubscriptions(customerID: transaction.customerID).first(where: { $0.originalID == transaction.originalID }),
              subscription.state == .subscribed || subscription.state == .inGracePeriod
        else {
            throw LocalStoreError.noActiveSubscription(transactionID: transactionID)
        }
        let request = DecodedRealtimeRequestBody(
            originalTransactionId: subscription.originalID, appAppleId: configuration.requiredAppAppleID, productId: subscription.productID,
            userLocale: catalog.localeIdentifier, requestIdentifier: UUID().uuidString.lowercased(),
            signedDate: try currentTime(), environment: configuration.environment)
        let signed = try authority.sign(request)
        let (status, body) = Self.post(signed, to: url)
        guard let status, (200..<300).contains(status) else {
            return CancelScreen(request: request, signedPayload: signed, status: status, answer: nil,
                                shown: .defaultMessage(reason: status.map { "the server answered \($0)" } ?? "the server could not be reached in time"))
        }
        guard let answer = try? JSONDecoder().decode(RealtimeResponseBody.self, from: body) else {
            return CancelScreen(request: request, signedPayload: signed, status: status, answer: nil, shown: .defaultMessage(reason: "the answer is not a RealtimeResponseBody"))
        }
        return CancelScreen(request: request, signedPayload: signed, status: status, answer: answer, shown: try shown(answer, for: request))
    }

    /// What the customer sees for a decoded answer.
    private func shown(_ answer: RealtimeResponseBody, for request: DecodedRealtimeRequestBody) throws -> CancelScreen.Shown {
        let given = [answer.message != nil, answer.alternateProduct != nil, answer.promotionalOffer != nil].filter { $0 }.count
        guard given <= 1 else { return .defaultMessage(reason: "the answer has more than one of message, alternateProduct, promotionalOffer") }
        let product = request.productId ?? ""
        if let message = answer.message {
            guard UUID(uuidString: message.messageIdentifier) != nil else { return .defaultMessage(reason: "messageIdentifier is not a UUID") }
            return .message(id: message.messageIdentifier)
        }
        if let alternate = answer.alternateProduct {
            guard UUID(uuidString: alternate.messageIdentifier) != nil else { return .defaultMessage(reason: "messageIdentifier is not a UUID") }
            guard let group = catalog.product(id: product)?.subscription?.subscriptionGroupID,
                  catalog.product(id: alternate.productId)?.subscription?.subscriptionGroupID == group, alternate.productId != product
            else { return .defaultMessage(reason: "\(alternate.productId) is no other plan of the subscription's group") }
            return .alternateProduct(messageID: alternate.messageIdentifier, productID: alternate.productId)
        }
        if let offer = answer.promotionalOffer {
            guard UUID(uuidString: offer.messageIdentifier) != nil else { return .defaultMessage(reason: "messageIdentifier is not a UUID") }
            let claims: PromotionalOfferSignatureIssuer.Claims
            switch try serverAPITokenVerifier().verifyPromotionalOffer(offer.promotionalOfferSignatureV2) {
            case .failure(let refusal): return .defaultMessage(reason: "the offer's signature: \(refusal)")
            case .success(let verified): claims = verified
            }
            guard claims.productId == product else { return .defaultMessage(reason: "the offer is signed for \(claims.productId), not \(product)") }
            guard claims.transactionId == request.originalTransactionId else {
                return .defaultMessage(reason: "the offer is signed for transaction \(claims.transactionId ?? "none"), not \(request.originalTransactionId ?? "")")
            }
            let offers = catalog.product(id: product)?.subscription?.promotionalOffers.map(\.id) ?? []
            guard offers.contains(claims.offerIdentifier) else {
                return .defaultMessage(reason: "\(claims.offerIdentifier) is no promotional offer of \(product)")
            }
            let keyID = (try? CompactJWS(parsing: offer.promotionalOfferSignatureV2).header.kid) ?? nil
            return .promotionalOffer(messageID: offer.messageIdentifier, offerID: claims.offerIdentifier, keyID: keyID ?? "")
        }
        return .defaultMessage(reason: nil)
    }

    /// `POST {"signedPayload": …}` to `url` within ``retentionTimeout``: the status and body, or nil.
    private static func post(_ payload: String, to url: URL) -> (Int?, Data) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: retentionTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONEncoder().encode(["signedPayload": payload])
        let result = LockedResult()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            result.set((response as? HTTPURLResponse)?.statusCode, data ?? Data())
            done.signal()
        }.resume()
        done.wait()
        return result.value
    }
}

/// The answer a URL session hands to its completion, kept for the waiting thread.
private final class LockedResult: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (Int?, Data) = (nil, Data())

    func set(_ status: Int?, _ body: Data) {
        lock.withLock { stored = (status, body) }
    }

    var value: (Int?, Data) { lock.withLock { stored } }
}
