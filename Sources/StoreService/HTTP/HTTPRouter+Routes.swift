import Foundation
import StoreCore
import StorePolicy

extension HTTPRouter {
    /// Every route, in the order of docs/service.md's route table, which lists each (a test holds the two together).
    static let table: [HTTPRoute] = [
        HTTPRoute("POST", "/v1/notifications", role: nil) { router, request, context throws(ServiceError) in
            try router.notification(request, requestID: context.requestID)
        },
        HTTPRoute("POST", "/v1/apple/retention", role: nil) { router, request, context throws(ServiceError) in
            let body = try RequestBodies.decode(RequestBodies.Notification.self, from: request.body)
            return .json(200, try router.retention.answer(signedPayload: body.signedPayload, requestID: context.requestID))
        },
        HTTPRoute("POST", "/v1/transactions", role: .app) { router, request, _ throws(ServiceError) in
            try router.transaction(request)
        },
        HTTPRoute("PUT", "/v1/customers/{id}", role: .app) { router, request, context throws(ServiceError) in
            let body = try RequestBodies.decode(RequestBodies.Customer.self, from: request.body, emptyIsObject: true)
            return .json(200, try router.service.answer(.registerCustomer(customerID: context.parameters[0], appAccountToken: body.appAccountToken)))
        },
        HTTPRoute("GET", "/v1/customers/{id}", role: .app) { router, _, context throws(ServiceError) in
            let answer = try router.service.answer(.entitlements(customerID: context.parameters[0]))
            if case .entitlements(let entitlements) = answer, !entitlements.customerKnown {
                throw .customerNotFound(context.parameters[0])
            }
            return .json(200, answer)
        },
        HTTPRoute("GET", "/v1/customers/{id}/storefront", role: .app, query: ["placement"]) { router, request, context throws(ServiceError) in
            let placement = request.query["placement"] ?? "store"
            guard (1...MerchandisingEvent.maximumNameLength).contains(placement.count), !placement.containsControlCharacter else {
                throw .badRequest("placement is 1 to \(MerchandisingEvent.maximumNameLength) characters without control characters")
            }
            return .json(200, writing: try router.service.storefrontPlan(customerID: context.parameters[0], placement: placement))
        },
        HTTPRoute("POST", "/v1/customers/{id}/events", role: .app) { router, request, context throws(ServiceError) in
            let body = try RequestBodies.decode(RequestBodies.Event.self, from: request.body)
            return .json(200, try router.service.answer(.recordEvent(customerID: context.parameters[0], name: body.name, placement: body.placement)))
        },
        HTTPRoute("POST", "/v1/decisions/{hook}", role: .app, query: ["trace"]) { router, request, context throws(ServiceError) in
            try router.decision(request, hook: context.parameters[0], requestID: context.requestID)
        },
        HTTPRoute("POST", "/v1/admin/reload", role: .admin, takesBody: false) { router, _, _ throws(ServiceError) in
            do throws(ServiceError) {
                let answer = try router.service.answer(.reload)
                router.metrics.recordReload(result: "success")
                return .json(200, answer)
            } catch {
                router.metrics.recordReload(result: "failure")
                throw error
            }
        },
        HTTPRoute("POST", "/v1/admin/retry-unfinished", role: .admin, takesBody: false) { router, _, _ throws(ServiceError) in
            .json(200, try router.service.answer(.retryUnfinished))
        },
        HTTPRoute("GET", "/v1/admin/policy", role: .admin) { router, _, _ throws(ServiceError) in
            .json(200, try router.service.answer(.policy))
        },
        HTTPRoute("GET", "/v1/admin/experiments", role: .admin, query: ["horizon", "as_of"]) { router, request, _ throws(ServiceError) in
            .json(200, try router.experimentReport(request, experiment: nil))
        },
        HTTPRoute("GET", "/v1/admin/experiments/{name}", role: .admin, query: ["horizon", "as_of"]) { router, request, context throws(ServiceError) in
            .json(200, try router.experimentReport(request, experiment: context.parameters[0]))
        },
        HTTPRoute("GET", "/v1/admin/metrics/subscriptions", role: .admin, query: ["from", "to", "interval", "by", "customer", "as_of"]) {
            router, request, _ throws(ServiceError) in
            .json(200, try router.subscriptionMetrics(request))
        },
        HTTPRoute("GET", "/healthz", role: nil) { _, _, _ throws(ServiceError) in
            .json(200, ["status": "ok"])
        },
        HTTPRoute("GET", "/readyz", role: nil) { router, _, context throws(ServiceError) in
            var readiness = router.service.readiness()
            // What the ledger's driver said can name a host, a port or a file: the log has it. So
            // can a failed reload, which the log said when it failed and /v1/admin/policy says.
            if let problem = readiness.problem {
                router.log("request \(context.requestID) (GET /readyz): \(problem)")
                readiness.problem = "the ledger does not answer a read"
            }
            if readiness.policyProblem != nil {
                readiness.policyProblem = "a reload or release failed; the previous version keeps serving (GET /v1/admin/policy says why)"
            }
            var response = HTTPResponse.json(readiness.isReady ? 200 : 503, readiness)
            if !readiness.isReady { response.headers["Retry-After"] = "5" }
            return response
        },
        HTTPRoute("GET", "/metrics", role: .admin) { router, _, _ throws(ServiceError) in
            .text(200, router.metricsExposition(), contentType: PrometheusText.contentType)
        },
    ] + operatorPageRoutes + contractRoutes

    // MARK: - Signed data

    /// Apple's notification. `200` only once it is durably stored (processed, already
    /// processed, or kept for a customer not known yet); a storage failure is `503`, as on every
    /// route, so Apple sends it again.
    private func notification(_ request: HTTPRequest, requestID: String) throws(ServiceError) -> HTTPResponse {
        let body = try RequestBodies.decode(RequestBodies.Notification.self, from: request.body)
        do {
            let answer = try service.answer(.ingestNotification(jws: body.signedPayload, customerID: nil))
            metrics.recordVerification(kind: "notification", status: "OK")
            if case .notification(let notification) = answer {
                metrics.recordIngest(kind: "notification", outcome: notification.status)
                if let transaction = notification.transaction {
                    metrics.recordIngest(kind: "transaction", outcome: transaction.outcome)
                }
            }
            return .json(200, answer)
        } catch {
            if case .verificationFailed(let part, let failure) = error {
                metrics.recordVerification(kind: "notification", status: failure.status.rawValue)
                let (advice, kind) = Self.whatToCheck(for: failure)
                refusals.log(
                    "request \(requestID): a notification was refused (\(failure.status.rawValue)): \(part): \(failure.description); \(advice)",
                    kind: "notification \(kind)")
            }
            throw error
        }
    }

    /// Which of the service's options a verification failure points at, and the kind of line
    /// it is rate-limited as: a body that is not a signed notification at all says nothing of
    /// the options, and is counted apart from a signature that does not chain to `--root`.
    static func whatToCheck(for failure: VerificationError) -> (advice: String, kind: String) {
        switch failure {
        case .malformedJWS, .malformedPayload, .missingCertificateChain, .unsupportedAlgorithm:
            return ("the body is not a notification signed as the App Store signs one: check what posts to this URL", "malformed")
        default:
            break
        }
        switch failure.status {
        case .invalidAppIdentifier:
            return ("check --bundle-id (and --app-apple-id), which must be the app's the notifications are for", failure.status.rawValue)
        case .invalidEnvironment:
            return ("check --environment, which must be the one whose notifications this URL receives", failure.status.rawValue)
        case .verificationFailure, .invalidCertificate, .invalidChainLength:
            return ("check --root (Apple Root CA - G3 for the App Store, the local store's root for the local store), "
                    + "and that what posts here is Apple or a local store", failure.status.rawValue)
        }
    }

    /// A transaction from the app, granted with the `grant` hook.
    private func transaction(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let body = try RequestBodies.decode(RequestBodies.Transaction.self, from: request.body)
        do {
            let answer = try service.answer(.ingestTransaction(customerID: body.customer, jws: body.signedTransaction))
            metrics.recordVerification(kind: "transaction", status: "OK")
            if case .transaction(let transaction) = answer {
                metrics.recordIngest(kind: "transaction", outcome: transaction.outcome)
            }
            return .json(200, answer)
        } catch {
            switch error {
            case .verificationFailed(_, let failure):
                metrics.recordVerification(kind: "transaction", status: failure.status.rawValue)
            case .ledgerRefused(.transactionOfAnotherCustomer(_, let refusal)):
                metrics.recordVerification(kind: "transaction", status: "OK")
                metrics.recordIngest(kind: "transaction", outcome: "refused_\(refusal.rawValue)")
            default:
                break
            }
            throw error
        }
    }

    // MARK: - Decisions

    /// One hook, OPA-style: on the `ctx` given, or on a customer as the ledger knows them.
    private func decision(_ request: HTTPRequest, hook: String, requestID: String) throws(ServiceError) -> HTTPResponse {
        let body = try RequestBodies.decode(RequestBodies.Decision.self, from: request.body, emptyIsObject: true)
        let subject: DecisionRequest.Subject
        switch (body.context, body.customer) {
        case (_?, _?): throw .badRequest("give ctx or customer, not both")
        case (let context?, nil): subject = .context(context)
        case (nil, let customer?): subject = .customer(customer)
        case (nil, nil): subject = .context(PolicyContext())
        }
        let traced: Bool
        switch request.query["trace"] {
        case nil, "0", "false": traced = false
        case "", "1", "true": traced = true
        case let other?: throw .badRequest("trace must be 1 or 0, not '\(other)'")
        }
        let started = ContinuousClock.now
        let answer = try service.answer(.decide(DecisionRequest(hook: hook, subject: subject, arguments: body.arguments, traced: traced)))
        guard case .decision(let response) = answer else { return .json(200, answer) }
        var customer: String?
        if case .customer(let id) = subject { customer = id }
        recorder.record(hook: hook, requestID: requestID, customer: customer, inputs: body.arguments, result: response.result,
                        source: response.source, policyVersion: response.policyVersion, started: started,
                        fallbackReason: response.fallbackReason)
        return .json(200, answer)
    }
}
