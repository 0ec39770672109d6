/// The answer of Get Transaction Info: one signed transaction.
public struct TransactionInfoResponse: Codable, Sendable, Equatable {
    /// The transaction's JWS.
    public var signedTransactionInfo: String?

    /// An answer.
    public init(signedTransactionInfo: String?) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}

/// The answer of Get App Transaction Info: the signed app transaction.
public struct AppTransactionInfoResponse: Codable, Sendable, Equatable {
    /// The app transaction's JWS.
    public var signedAppTransactionInfo: String?

    /// An answer.
    public init(signedAppTransactionInfo: String?) {
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}

/// The answer of Look Up Order ID: whether the order id is valid, and its transactions.
public struct OrderLookupResponse: Codable, Sendable, Equatable {
    /// `0` valid, `1` invalid.
    public var status: Int?
    /// The order's signed transactions.
    public var signedTransactions: [String]?

    /// An answer.
    public init(status: Int?, signedTransactions: [String]?) {
        self.status = status
        self.signedTransactions = signedTransactions
    }
}
