import CommandLineOptions
import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import SQLiteLedger
import StoreJourneys
import StorePolicy
import StoreTesting

/// The local store one `storerules store` invocation works with: the policy folder's catalog
/// and policy, the ledger (a SQLite file or a PostgreSQL database), and the store's own state
/// and signing authority where ``StoreFiles`` puts them.
///
/// A ledger file of an earlier version keeps the store's tables itself; when the store state
/// is new, they move out of it into the store state.
///
/// The policy's `grant` hook decides what each transaction grants, with the customer's full
/// context as the ledger knows them (`PolicyEngine.grantDecision(for:catalog:clock:)`) at the
/// store's time (``StoreTime``).
struct StoreSession {
    let store: LocalStore
    /// The store state's SQLite file.
    let statePath: String
    /// The policy, for grants and features.
    let engine: PolicyEngine
    private let storeTime: StoreTime

    init(folderPath: String, ledger location: LedgerLocation, parsed: ParsedArguments) throws {
        let files = try StoreFiles(ledger: location, storeState: try parsed.value(of: StoreCommand.storeState))
        let (folder, loadedCatalog) = try PolicyLoader.open(folderPath)
        guard let catalog = loadedCatalog else {
            throw CommandFailure("\(folderPath) has no .storekit catalog for the store to sell")
        }
        let givenEnvironment = try parsed.value(of: StoreCommand.environment)
        let appAppleID = try parsed.value(of: StoreCommand.appAppleID)
        let engine: PolicyEngine
        do {
            engine = try PolicyEngine(source: try folder.policySource(), catalog: PolicyCatalog(catalog),
                                      limits: try PolicyLoader.limits(parsed), print: { Output.error("[policy] " + $0) })
        } catch let error as PolicyError {
            throw CommandFailure(error.description)
        }
        let ledger = try location.openForCommand()
        let statePath = files.statePath
        let state: Database
        do {
            state = try Database(path: statePath)
            if case .sqlite(let ledgerPath) = location {
                try LocalStore.moveState(fromLedgerAt: ledgerPath, into: state)
            }
        } catch {
            throw CommandFailure("cannot open the store state \(statePath): \(error)")
        }
        let identity = try Self.identity(of: state, at: statePath, bundleID: try parsed.value(of: StoreCommand.bundleID),
                                         environment: givenEnvironment)
        if identity.environment == .production, appAppleID == nil {
            throw UsageError("the Production environment needs --app-apple-id")
        }
        let authority: SigningAuthority
        do {
            authority = try SigningAuthority.loadOrCreate(in: URL(fileURLWithPath: files.certificatesPath))
        } catch {
            throw CommandFailure(error.description)
        }
        let configuration = LocalStore.Configuration(bundleID: identity.bundleID, environment: identity.environment,
                                                     appAppleID: appAppleID)
        let storeTime = StoreTime(Date())
        store = try LocalStore(catalog: catalog, authority: authority, ledger: ledger, state: state,
                               configuration: configuration,
                               decide: engine.grantDecision(for: ledger, catalog: catalog, storeTime: storeTime))
        self.engine = engine
        self.storeTime = storeTime
        self.statePath = statePath
        storeTime.date = try store.now()
    }

    /// The bundle identifier and environment to sign as: those the store state remembers,
    /// which a value given must match; for a new store state, those given, else the defaults.
    private static func identity(of state: Database, at path: String, bundleID: String?,
                                 environment: AppStoreEnvironment?) throws -> LocalStore.Identity {
        guard let remembered = try LocalStore.rememberedIdentity(in: state) else {
            return LocalStore.Identity(bundleID: bundleID ?? StoreCommand.defaultBundleID, environment: environment ?? .xcode)
        }
        if let bundleID, bundleID != remembered.bundleID {
            throw CommandFailure("the store state \(path) was made for the bundle identifier \(remembered.bundleID), "
                                 + "not \(bundleID); leave out --bundle-id to use it")
        }
        if let environment, environment != remembered.environment {
            throw CommandFailure("the store state \(path) was made for the \(remembered.environment.rawValue) environment, "
                                 + "not \(environment.rawValue); leave out --environment to use it")
        }
        return remembered
    }

    /// The environment `text` names, in any letter case: one the local store signs for.
    /// The sequence of the last notification in the outbox.
    func lastNotificationSequence() throws -> Int {
        try store.notifications().last?.sequence ?? 0
    }

    /// The group a subscription command is about: the one given, else the customer's only one.
    func group(of customerID: String, _ given: String?) throws -> String {
        if let given { return given }
        let groups = Set(try store.subscriptions(customerID: customerID).filter { !$0.isFamilyShared }.map(\.groupID))
        if groups.count == 1, let only = groups.first { return only }
        guard groups.isEmpty else {
            throw UsageError("\(customerID) has subscriptions in groups \(groups.sorted().joined(separator: ", ")); give --group")
        }
        throw CommandFailure("\(customerID) has no subscription; give --group")
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
        output.changes(now: try now(), notifications: try store.notifications(after: before))
    }

    /// Processes what the store's clock passed since the last command: renewals, failed
    /// renewals, grace periods and billing retry ending, expirations.
    func catchUp() throws {
        try store.update()
    }

    /// The store's time now; grant decisions read it from here on.
    func now() throws -> Date {
        let now = try store.now()
        storeTime.date = now
        return now
    }

    /// What the ledger says each customer owns at `date`: entitlements, subscription statuses,
    /// introductory-offer eligibility and balances.
    func states(of customers: [String], at date: Date) throws -> [CustomerState] {
        try customers.map { try store.ledger.customerState(customerID: $0, catalog: store.catalog, at: date) }
    }

    /// The features the policy unlocks for `state`'s customer at the state's date.
    func features(of state: CustomerState) throws -> Decision<[String]> {
        try engine.features(forCustomer: state.customerID, ledger: store.ledger, catalog: store.catalog, at: state.date,
                            environment: PolicyContext.Environment(store.configuration.environment))
    }
}
