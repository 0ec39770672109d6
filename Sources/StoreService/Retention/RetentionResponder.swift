import AppStoreServerAPI
import Foundation
import StoreCore
import StorePolicy

/// Answers Apple's Retention Messaging real-time requests — a subscriber has opened the cancel
/// screen — with the policy's `retention_message` hook, on the customer's state as the ledger
/// knows it; a promotional offer is signed with the configured in-app purchase key.
///
/// Whatever goes wrong once the request is verified (a hook that fails, an unknown customer, an
/// offer with no key to sign it) answers Apple's default message, never an error: Apple shows
/// the default on an error anyway, only later.
public final class RetentionResponder: Sendable {
    /// The service whose ledger and policy decide.
    public let service: Service
    /// What signs promotional offers, when a key is configured.
    public let offerSigner: PromotionalOfferSignatureIssuer?
    /// Where each decision is counted and logged.
    public let recorder: DecisionRecorder
    /// Where verifications are counted.
    public let metrics: ServiceMetrics
    /// Where a reason for answering the default goes.
    public let log: @Sendable (String) -> Void

    /// A responder over `service`, counting verifications in `metrics` and recording each
    /// decision with `recorder`.
    public init(service: Service, offerSigner: PromotionalOfferSignatureIssuer?, metrics: ServiceMetrics, recorder: DecisionRecorder,
                log: @escaping @Sendable (String) -> Void) {
        self.service = service
        self.offerSigner = offerSigner
        self.metrics = metrics
        self.recorder = recorder
        self.log = log
    }

    /// The answer to a verified request's `signedPayload`.
    ///
    /// - Throws: ``ServiceError/verificationFailed(part:_:)`` when the payload does not verify
    ///   (Apple then shows its default message); nothing else.
    public func answer(signedPayload: String, requestID: String) throws(ServiceError) -> RealtimeResponseBody {
        let request: DecodedRealtimeRequestBody
        do {
            request = try service.verifier.verifyAndDecodeRealtimeRequest(signedPayload)
            metrics.recordVerification(kind: "retention", status: "OK")
        } catch {
            metrics.recordVerification(kind: "retention", status: error.status.rawValue)
            throw .verificationFailed(part: "retention request", error)
        }
        let question = RetentionRequest(
            originalTransactionID: request.originalTransactionId ?? "", productID: request.productId ?? "",
            locale: request.userLocale ?? "en_US", requestID: request.requestIdentifier ?? requestID,
            environment: request.environment?.rawValue ?? "", signedAt: request.signedDate ?? Date())
        var context: PolicyContext, customerID: String?
        do {
            (context, customerID) = try service.context(ofTransaction: question.originalTransactionID)
        } catch {
            log("request \(requestID) (retention): Apple's default message: the ledger cannot be read: \(error.message)")
            recorder.recordFallbackWithoutDecision(hook: PolicyHook.retentionMessage.name, requestID: requestID)
            return .defaultMessage
        }
        context.locale = question.locale
        let started = ContinuousClock.now
        let decision = service.engine.retentionMessage(context, request: question)
        if let failure = decision.failure {
            log("request \(requestID) (retention): Apple's default message: \(failure.description)")
        }
        recorder.record(hook: PolicyHook.retentionMessage.name, requestID: requestID, customer: customerID, inputs: [question.luaValue],
                        result: decision.value.map { .value($0.luaValue) } ?? .null, source: decision.source.name,
                        policyVersion: service.engine.version, started: started, fallbackReason: decision.failure?.description)
        // The customer sees a variant only once the ledger holds it, also when the variant's
        // answer is Apple's default message.
        do throws(ServiceError) {
            guard try service.recordExposures(decision.exposures) else {
                log("request \(requestID) (retention): Apple's default message: another decision recorded the customer's variant otherwise")
                return .defaultMessage
            }
        } catch {
            log("request \(requestID) (retention): Apple's default message: the exposure cannot be recorded: \(error.message)")
            return .defaultMessage
        }
        guard let message = decision.value else { return .defaultMessage }
        return body(for: message, request: question, requestID: requestID)
    }

    private func body(for message: RetentionMessage, request: RetentionRequest, requestID: String) -> RealtimeResponseBody {
        switch message.offer {
        case .none:
            return RealtimeResponseBody(message: .init(messageIdentifier: message.messageID))
        case .alternateProduct(let productID):
            return RealtimeResponseBody(alternateProduct: .init(messageIdentifier: message.messageID, productId: productID))
        case .promotionalOffer(let offerID):
            guard let offerSigner else {
                log("request \(requestID) (retention): Apple's default message: the promotional offer \(offerID) needs the "
                    + "in-app purchase key (--app-store-key …) to be signed")
                return .defaultMessage
            }
            do {
                let signature = try offerSigner.signature(productID: request.productID, offerID: offerID,
                                                          transactionID: request.originalTransactionID)
                return RealtimeResponseBody(promotionalOffer: .init(messageIdentifier: message.messageID, promotionalOfferSignatureV2: signature))
            } catch {
                log("request \(requestID) (retention): Apple's default message: \(error)")
                return .defaultMessage
            }
        }
    }
}
