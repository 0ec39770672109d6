/// Why the ``Ledger`` refused an input. A refused input changes nothing that is stored.
public enum LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A signed payload lacks a field the ledger needs, such as `transactionId`.
    case missingField(payload: String, field: String)
    /// A signed payload's field has a value the ledger cannot accept, such as a quantity of 0.
    case invalidField(payload: String, field: String, value: String)
    /// A customer id breaks ``CustomerID``'s rule; the text says how.
    case invalidCustomerID(String)
    /// An app account token that is not a UUID.
    case invalidAppAccountToken(String)
    /// A transaction already stored arrived with a different value of a field that never
    /// changes for one transaction (its customer, product, purchase date …).
    case conflictingTransaction(transactionID: String, field: String, stored: String, received: String)
    /// A customer claimed a transaction that belongs to another customer's account; nothing
    /// was stored or granted.
    case transactionOfAnotherCustomer(transactionID: String, refusal: TransactionClaimRefusal)
    /// The app account token is already attached to another customer.
    case appAccountTokenInUse(token: String, customerID: String)
    /// The customer already has a different app account token.
    case conflictingAppAccountToken(customerID: String, stored: String, received: String)
    /// No transaction with this id is stored.
    case unknownTransaction(String)
    /// A notification lacks its `notificationUUID`.
    case missingNotificationUUID
    /// The decoded payloads given with a notification do not match the signed data it carries
    /// (a transaction given for a notification without `signedTransactionInfo`, or the reverse).
    case notificationPayloadMismatch(String)
    /// The ledger's storage failed: the database could not be reached, refused a statement or
    /// could not commit. Nothing of the failed call is kept; ``LedgerStorageFailure/isTransient``
    /// says whether trying again later may succeed.
    case storage(LedgerStorageFailure)
    /// A copy's target ledger already holds this many customers, renewal infos and
    /// notifications.
    case copyTargetNotEmpty(Int)
    /// An event that cannot be recorded, and why.
    case invalidEvent(String)
    /// An experiment's exposure or phase record that cannot be recorded, and why.
    case invalidExperiment(String)
    /// A subscription metrics report that cannot be made as asked, and why.
    case invalidMetricsQuery(String)
    /// A new event name for a customer who has as many distinct names as they may keep.
    case tooManyEventNames(customerID: String, limit: Int)
    /// A transaction changed between each decision about its grant and the write that would
    /// record it, this many times in a row; it stays unfinished, to retry.
    case decisionOutpaced(transactionID: String, attempts: Int)

    /// Whether the refusal is of an argument's form (a customer id, a token), not of data
    /// the ledger holds.
    public var isMalformedInput: Bool {
        switch self {
        case .invalidCustomerID, .invalidAppAccountToken, .invalidEvent, .invalidExperiment, .invalidMetricsQuery: true
        default: false
        }
    }

    /// One line describing the refusal.
    public var description: String {
        switch self {
        case .missingField(let payload, let field):
            "the \(payload) has no '\(field)'"
        case .invalidField(let payload, let field, let value):
            "the \(payload) has an invalid '\(field)': \(value)"
        case .invalidCustomerID(let problem):
            problem
        case .invalidAppAccountToken(let token):
            "the app account token '\(token)' is not a UUID, such as 7e3fb20b-4cdb-47cc-936d-99d65f608138"
        case .conflictingTransaction(let transactionID, let field, let stored, let received):
            "transaction \(transactionID) is stored with \(field) \(stored), and arrived with \(received)"
        case .transactionOfAnotherCustomer(let transactionID, let refusal):
            "transaction \(transactionID) belongs to another account: \(refusal.description); nothing was stored or granted"
        case .appAccountTokenInUse(let token, let customerID):
            "the app account token \(token) already belongs to customer \(customerID)"
        case .conflictingAppAccountToken(let customerID, let stored, let received):
            "customer \(customerID) has app account token \(stored), not \(received)"
        case .unknownTransaction(let transactionID):
            "no transaction \(transactionID) is stored"
        case .missingNotificationUUID:
            "the notification has no 'notificationUUID'"
        case .notificationPayloadMismatch(let detail):
            "the notification's payloads do not match: \(detail)"
        case .storage(let failure):
            "the ledger's storage failed: \(failure.message)"
        case .copyTargetNotEmpty(let count):
            "the target ledger is not empty (it holds \(count) customers, renewal infos and notifications)"
        case .invalidEvent(let reason), .invalidExperiment(let reason), .invalidMetricsQuery(let reason):
            reason
        case .decisionOutpaced(let transactionID, let attempts):
            "transaction \(transactionID) changed while its grant was decided, \(attempts) times in a row; it stays unfinished "
                + "(storerules ledger retry grants it)"
        case .tooManyEventNames(let customerID, let limit):
            "customer \(customerID) already has \(limit) distinct event names, the most one customer keeps; record one of those names, "
                + "or raise the limit (storerules serve --max-event-names)"
        }
    }
}
