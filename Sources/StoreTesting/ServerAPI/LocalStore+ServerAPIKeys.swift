import AppStoreServerAPI
import Foundation
import StoreCore

extension LocalStore {
    /// Makes an App Store Server API key the store's `api` accepts from now on, as App Store
    /// Connect makes one: a new P-256 key with a new key id, under the store's one issuer id.
    ///
    /// - Returns: The key and its `.p8` text, which the store does not keep.
    public func makeServerAPIKey() throws -> (key: AppStoreServerAPIKey, privateKeyPEM: String) {
        try serially {
            try state.write { connection in
                let issuer = try connection.fetchValue(String.self, "SELECT issuer_id FROM local_store_api_key ORDER BY created_date LIMIT 1")
                    ?? UUID().uuidString.lowercased()
                let keyID = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10))
                let made = try AppStoreServerAPIKey.generate(keyID: keyID, issuerID: issuer)
                try connection.execute(
                    "INSERT INTO local_store_api_key (key_id, issuer_id, public_key_pem, created_date) VALUES (?, ?, ?, ?)",
                    [keyID, issuer, made.key.publicKeyPEM, Date().millisecondsSince1970])
                return made
            }
        }
    }

    /// The verifier of the bearer tokens the store's `api` accepts: signed by a key it made.
    public func serverAPITokenVerifier() throws -> AuthenticationTokenVerifier {
        let rows = try state.read { try $0.fetchAll("SELECT key_id, issuer_id, public_key_pem FROM local_store_api_key") }
        var keys: [String: AuthenticationTokenVerifier.AcceptedKey] = [:]
        for row in rows {
            keys[try row.decode(column: "key_id")] = try AuthenticationTokenVerifier.AcceptedKey(
                publicKeyPEM: try row.decode(column: "public_key_pem"), issuerID: try row.decode(column: "issuer_id"))
        }
        return AuthenticationTokenVerifier(keys: keys, bundleID: configuration.bundleID)
    }

    /// The order id of a purchase: the key of Look Up Order ID, and what the customer's receipt shows.
    public func orderID(ofTransaction transactionID: String) -> String {
        OrderID.of(transactionID: transactionID, bundleID: configuration.bundleID)
    }
}
