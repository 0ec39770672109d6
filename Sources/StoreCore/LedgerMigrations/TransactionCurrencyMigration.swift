import SignedData

/// What the migration that keeps transactions' currencies and offer discount types reads,
/// written once for both databases.
enum TransactionCurrencyMigration {
    /// The `currency` and `offerDiscountType` of a stored transaction's JWS; each `nil` when
    /// its payload does not have it or cannot be read.
    static func fields(ofStoredJWS jws: String) -> (currency: String?, offerDiscountType: String?) {
        guard let compact = try? CompactJWS(parsing: jws),
              let payload = try? compact.decodePayload(as: JWSTransactionDecodedPayload.self) else { return (nil, nil) }
        return (payload.currency, payload.offerDiscountType?.rawValue)
    }
}
