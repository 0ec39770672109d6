import Foundation
import StoreCore
import StorePolicy

/// The local store one `storerules store` invocation works with: the policy folder's catalog
/// and grant hook, the ledger file, and the signing authority beside it.
struct StoreSession {
    let store: LocalStore

    init(folderPath: String, ledgerPath: String, parsed: CommandLineArguments) throws {
        let (folder, loadedCatalog) = try PolicyLoader.open(folderPath)
        guard let catalog = loadedCatalog else {
            throw CommandFailure("\(folderPath) has no .storekit catalog for the store to sell")
        }
        let environment = try Self.environment(parsed.value("environment"))
        var appAppleID: Int64?
        if let text = parsed.value("app-apple-id") {
            guard let number = Int64(text), number > 0 else { throw UsageError("--app-apple-id must be a positive number") }
            appAppleID = number
        }
        if environment == .production, appAppleID == nil {
            throw UsageError("the Production environment needs --app-apple-id")
        }
        let engine: PolicyEngine
        do {
            engine = try PolicyEngine(source: try folder.policySource(), catalog: PolicyCatalog(catalog),
                                      limits: try PolicyLoader.limits(parsed), print: { Output.error("[policy] " + $0) })
        } catch let error as PolicyError {
            throw CommandFailure(error.description)
        }
        let ledger: Ledger
        do {
            ledger = try Ledger(path: ledgerPath)
        } catch {
            throw CommandFailure("cannot open the ledger \(ledgerPath): \(error)")
        }
        let authority: SigningAuthority
        do {
            authority = try SigningAuthority.loadOrCreate(in: URL(fileURLWithPath: ledgerPath + ".certificates"))
        } catch {
            throw CommandFailure(error.description)
        }
        let configuration = LocalStore.Configuration(
            bundleID: parsed.value("bundle-id") ?? StoreCommand.defaultBundleID, environment: environment,
            appAppleID: appAppleID)
        let grantContext = GrantContext(catalog: catalog, ledger: ledger, environment: environment)
        store = try LocalStore(catalog: catalog, authority: authority, ledger: ledger, configuration: configuration) {
            try grantContext.grants(for: $0, engine: engine)
        }
    }

    private static func environment(_ text: String?) throws(UsageError) -> AppStoreEnvironment {
        switch text {
        case nil, "Xcode": return .xcode
        case "Sandbox": return .sandbox
        case "Production": return .production
        case let other?: throw UsageError("--environment takes Xcode, Sandbox or Production, not '\(other)'")
        }
    }

    /// The sequence of the last notification in the outbox.
    func lastNotificationSequence() throws -> Int {
        try store.notifications().last?.sequence ?? 0
    }

    /// The group a subscription command is about: the one given, else the customer's only one.
    func group(of customerID: String, _ given: String?) throws -> String {
        if let given { return given }
        let groups = Set(try store.subscriptions(customerID: customerID).filter { !$0.isFamilyShared }.map(\.groupID))
        switch groups.count {
        case 1: return groups.first!
        case 0: throw CommandFailure("\(customerID) has no subscription; give --group")
        default: throw UsageError("\(customerID) has subscriptions in groups \(groups.sorted().joined(separator: ", ")); give --group")
        }
    }

    /// The customers a listing is about: the one given, else every customer of the ledger.
    func customers(_ given: String?) throws -> [String] {
        if let given { return [given] }
        return try store.ledger.customers().map(\.id)
    }

    /// Runs a change and prints the notifications it sent.
    func change(_ output: StoreOutput, _ body: () throws -> [StoreNotification]) throws {
        let before = try lastNotificationSequence()
        _ = try body()
        output.changes(now: try store.now(), notifications: try store.notifications(after: before))
    }

    /// What the ledger says about subscriptions and entitlements.
    func ledgerView() throws -> LedgerEntitlements {
        LedgerEntitlements(ledger: store.ledger, catalog: store.catalog, now: try store.now())
    }
}

/// Asks the policy's grant hook what a stored transaction grants, with a minimal context: the
/// customer's id and ledger balances, at the time the transaction was signed.
struct GrantContext: Sendable {
    let catalog: Catalog
    let ledger: Ledger
    let environment: AppStoreEnvironment

    func grants(for transaction: StoredTransaction, engine: PolicyEngine) throws -> [Grant] {
        let payload = try CompactJWS(parsing: transaction.jwsRepresentation)
            .decodePayload(as: JWSTransactionDecodedPayload.self)
        let context = PolicyContext(
            now: transaction.signedDate, storefront: catalog.storefront.countryCode, locale: catalog.localeIdentifier,
            environment: policyEnvironment,
            customer: CustomerContext(id: transaction.customerID, statusKnown: true,
                                      balances: try ledger.balances(customerID: transaction.customerID)))
        return try engine.grant(context, transaction: payload, product: transaction.productID).value
    }

    private var policyEnvironment: PolicyContext.Environment {
        switch environment {
        case .production: .production
        case .sandbox: .sandbox
        default: .xcode
        }
    }
}
