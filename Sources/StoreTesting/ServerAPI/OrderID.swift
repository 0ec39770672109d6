import Foundation
import StoreCore

/// The order id the local store gives a purchase, as on the customer's App Store receipt:
/// ten letters and digits (no 0, 1, I or O), derived from the store's identity and the
/// transaction, so it is stable and needs no storage.
enum OrderID {
    private static let alphabet = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")

    /// The order id of the transaction `transactionID` of the store signing for `bundleID`.
    static func of(transactionID: String, bundleID: String) -> String {
        let digest = SHA256Digest.bytes(of: Data("order:\(bundleID):\(transactionID)".utf8))
        return String(digest.prefix(10).map { alphabet[Int($0) % alphabet.count] })
    }
}
