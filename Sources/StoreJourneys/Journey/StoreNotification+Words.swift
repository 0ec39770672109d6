import StoreCore
import StorePolicy
import StoreTesting

extension StoreNotification {
    /// The notification in words, as journeys and the REPL print it: "SUBSCRIBED (INITIAL_BUY)",
    /// followed by the product of the transaction it carries when `namingProduct` is true.
    func words(namingProduct: Bool) -> String {
        var text = notificationType?.rawValue ?? "NOTIFICATION"
        if let subtype { text += " (\(subtype.rawValue))" }
        if namingProduct, let signed = payload.data?.signedTransactionInfo,
           let transaction = try? CompactJWS(parsing: signed).decodePayload(as: JWSTransactionDecodedPayload.self),
           let product = transaction.productId {
            text += " \(product)"
        }
        return text
    }
}
