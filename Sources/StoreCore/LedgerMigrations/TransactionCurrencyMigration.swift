import SignedData

/// What the migrations that keep transactions' currencies, offer discount types and
/// storefronts read from each stored JWS, written once for both databases.
enum TransactionCurrencyMigration {
    /// The `currency` and `offerDiscountType` of a stored transaction's JWS; each `nil` when
    /// its payload does not have it or cannot be read.
    static func fields(ofStoredJWS jws: String) -> (currency: String?, offerDiscountType: String?) {
        guard let payload = payload(ofStoredJWS: jws) else { return (nil, nil) }
        return (payload.currency, payload.offerDiscountType?.rawValue)
    }

    /// The `storefront` of a stored transaction's JWS; `nil` when its payload does not have
    /// it or cannot be read.
    static func storefront(ofStoredJWS jws: String) -> String? {
        payload(ofStoredJWS: jws)?.storefront
    }

    private static func payload(ofStoredJWS jws: String) -> JWSTransactionDecodedPayload? {
        guard let compact = try? CompactJWS(parsing: jws) else { return nil }
        return try? compact.decodePayload(as: JWSTransactionDecodedPayload.self)
    }
}
