import Foundation

/// A Backyard Birds customer's month with the pass — and the two months of billing trouble
/// after it — played once through `storerules store`, one process per command, over one
/// ledger file in the Sandbox environment.
///
/// The customer buys a box of pellets, subscribes to the Individual pass with its free month,
/// upgrades to Premium; the tester turns on billing retry and the grace period; the clock
/// passes the renewal (which fails: the grace period starts), the end of the grace period
/// (billing retry goes on) and the end of billing retry (the pass expires); the pellets are
/// refunded. After each step the month keeps what the step printed and the customer's
/// `status --json` and `entitlements --json`; at the end, everything the ledger holds.
struct ScriptedMonth: Sendable {
    static let bundleID = "com.example.backyardbirds"
    static let environment = "Sandbox"
    static let customer = "robin"
    /// The Backyard Birds Pass subscription group.
    static let passGroup = "6F3A93AB"

    /// The steps of the month, in order.
    enum Step: String, CaseIterable, Sendable {
        case buyPellets, subscribeToIndividual, upgradeToPremium, turnOnBillingRetryAndGracePeriod
        case renewalFails, gracePeriodEnds, billingRetryEnds, refundPellets
    }

    /// What a step printed, and the customer as the store saw them right after it.
    struct Moment: Sendable {
        let output: Data
        let status: Data
        let entitlements: Data
    }

    let moments: [Step: Moment]
    /// `transactions --json`, `notifications --json` and `status --json` at the end, for every
    /// customer of the ledger.
    let transactions: Data
    let notifications: Data
    let status: Data
    /// The root certificate the store signs under (`certificate`), as PEM.
    let rootCertificate: String
    /// The root certificate of another store (another ledger's), as PEM.
    let anotherStoresRootCertificate: String
    /// The ledger file the month was played on; read it, do not change it.
    let ledger: String

    /// The month, played on first use.
    static let played: Result<ScriptedMonth, any Error> = Result { try play() }

    private static func play() throws -> ScriptedMonth {
        let shop = try StoreCommandTests.Shop(options: ["--bundle-id", bundleID, "--environment", environment])
        var moments: [Step: Moment] = [:]
        func play(_ step: Step, _ arguments: String...) throws -> [String: Any] {
            // Purchases name the customer; settings, advance and refund are about the store or a transaction.
            let output = try shop.jsonData(arguments + (arguments.first == "purchase" ? ["--customer", customer] : []))
            moments[step] = Moment(
                output: output, status: try shop.jsonData(["status", "--customer", customer]),
                entitlements: try shop.jsonData(["entitlements", "--customer", customer]))
            return try StoreCommandTests.object(output)
        }

        let pellets = try play(.buyPellets, "purchase", "pellet.box")
        _ = try play(.subscribeToIndividual, "purchase", "pass.individual")
        _ = try play(.upgradeToPremium, "purchase", "pass.premium")
        _ = try play(.turnOnBillingRetryAndGracePeriod, "settings", "--billing-retry", "on", "--grace-period", "on")
        _ = try play(.renewalFails, "advance", "P1M")
        _ = try play(.gracePeriodEnds, "advance", "P16D")
        _ = try play(.billingRetryEnds, "advance", "P44D")
        guard let pelletsID = StoreCommandTests.transaction(pellets)["transactionId"] as? String else {
            throw StoreCommandTests.NotAnObject(arguments: ["purchase", "pellet.box"], text: "\(pellets)")
        }
        _ = try play(.refundPellets, "refund", pelletsID)

        return ScriptedMonth(
            moments: moments, transactions: try shop.jsonData(["transactions"]),
            notifications: try shop.jsonData(["notifications"]), status: try shop.jsonData(["status"]),
            rootCertificate: try shop.run("certificate").standardOutput,
            anotherStoresRootCertificate: try StoreCommandTests.Shop().run("certificate").standardOutput,
            ledger: shop.ledger)
    }

    // MARK: - Reading it

    /// What a step printed, parsed.
    func output(_ step: Step) throws -> [String: Any] {
        try StoreCommandTests.object(try moment(step).output)
    }

    /// The customer's only subscription status after a step, parsed; fails when there is not
    /// exactly one.
    func subscription(after step: Step) throws -> [String: Any] {
        let status = try StoreCommandTests.object(try moment(step).status)
        let subscriptions = status["subscriptions"] as? [[String: Any]] ?? []
        guard subscriptions.count == 1, let only = subscriptions.first else {
            throw UnexpectedRecord(what: "one subscription after \(step)", found: "\(subscriptions)")
        }
        return only
    }

    /// The customer's `status --json` after a step, parsed.
    func status(after step: Step) throws -> [String: Any] {
        try StoreCommandTests.object(try moment(step).status)
    }

    /// The customer's `entitlements --json` after a step, parsed.
    func entitlements(after step: Step) throws -> [String: Any] {
        try StoreCommandTests.object(try moment(step).entitlements)
    }

    private func moment(_ step: Step) throws -> Moment {
        guard let moment = moments[step] else { throw UnexpectedRecord(what: "the step \(step)", found: "nothing") }
        return moment
    }

    /// One signed payload the ledger holds, and what kind it is (by the key it appears under).
    struct Payload: Hashable, Sendable {
        enum Kind: String, CaseIterable, Sendable {
            case transaction, renewal, notification

            /// The kind of payload a JSON key of `storerules store` holds, if any.
            init?(key: String) {
                switch key {
                case "signed_transaction_info": self = .transaction
                case "signed_renewal_info": self = .renewal
                case "signed_payload": self = .notification
                default: return nil
                }
            }
        }

        let kind: Kind
        let jws: String
    }

    /// Every distinct signed payload in the final `transactions`, `notifications` and `status`
    /// outputs — every version of every transaction, every renewal info, every notification and
    /// the transaction and renewal info each notification carries — in the order first seen.
    func payloads() throws -> [Payload] {
        var found: [Payload] = []
        var seen = Set<Payload>()
        func collect(_ value: Any, key: String) {
            switch value {
            case let dictionary as [String: Any]:
                for key in dictionary.keys.sorted() { collect(dictionary[key]!, key: key) }
            case let array as [Any]:
                for element in array { collect(element, key: key) }
            case let jws as String:
                if let kind = Payload.Kind(key: key), seen.insert(Payload(kind: kind, jws: jws)).inserted {
                    found.append(Payload(kind: kind, jws: jws))
                }
            default:
                break
            }
        }
        for data in [transactions, notifications, status] {
            collect(try StoreCommandTests.object(data), key: "")
        }
        return found
    }

    struct UnexpectedRecord: Error, CustomStringConvertible {
        let what: String
        let found: String
        var description: String { "expected \(what), found \(found)" }
    }
}
