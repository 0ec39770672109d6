import SignedData

/// What the migration that keeps transactions' prices reads, written once for both databases.
enum TransactionPriceMigration {
    /// The `price` of a stored transaction's JWS, or `nil` when its payload has none or cannot
    /// be read (the ledger stored it verified, so only a payload from before Apple added the
    /// field lacks it).
    static func price(ofStoredJWS jws: String) -> Int64? {
        guard let compact = try? CompactJWS(parsing: jws),
              let payload = try? compact.decodePayload(as: JWSTransactionDecodedPayload.self) else { return nil }
        return payload.price
    }
}
