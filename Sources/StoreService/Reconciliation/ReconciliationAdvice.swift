import AppStoreServerAPI
import StoreCore

/// A failed reconcile in words an operator can act on: what failed, and which of the service's
/// settings to check. It names the key id, issuer id and bundle identifier in use, never the key.
public enum ReconciliationAdvice {
    /// One line saying why `error` ended a reconcile through `client`, and what to check.
    public static func explanation(of error: any Error, client: AppStoreServerAPIClient) -> String {
        let key = client.tokens.key
        let identity = "key id \(key.keyID), issuer id \(key.issuerID), bundle id \(client.tokens.bundleID)"
        switch error {
        case AppStoreServerAPIError.api(let status, _, _) where status == 401:
            return "\(error); the App Store Server API did not accept the token signed with \(identity): check "
                + "--app-store-key-id and --app-store-issuer-id against App Store Connect (Users and Access, Integrations), that "
                + "--app-store-key is that key's .p8 file, that --bundle-id is the app's, and that --app-store-url is the environment's"
        case AppStoreServerAPIError.api(let status, _, _) where status == 403 || status == 404:
            return "\(error); with \(identity): check that --bundle-id and --environment name this app and the environment "
                + "--app-store-url serves"
        case AppStoreServerAPIError.transport:
            return "\(error); check --app-store-url (\(client.baseURL.absoluteString)) and that this machine reaches it"
        case AppStoreServerAPIError.verification:
            return "\(error); check --root, --bundle-id and --environment: what the API answers is verified as notifications are"
        case AppStoreServerAPIError.signing:
            return "\(error); check that --app-store-key is a readable .p8 key (\(identity))"
        case let ledger as LedgerError:
            return "the ledger failed: \(ledger)"
        default:
            return "\(error)"
        }
    }
}
