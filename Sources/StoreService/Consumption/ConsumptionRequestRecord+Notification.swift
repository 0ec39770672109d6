import Foundation
import StoreCore

extension ConsumptionRequestRecord {
    /// The refund request a verified `CONSUMPTION_REQUEST` notification carries, received now;
    /// nil for any other notification, or one without its transaction.
    init?(notification: ResponseBodyV2DecodedPayload, transaction: JWSTransactionDecodedPayload?,
          receivedDate: Int64 = Date().millisecondsSince1970) {
        guard notification.notificationType == .consumptionRequest, let uuid = notification.notificationUUID,
              let transactionID = transaction?.transactionId, let jws = notification.data?.signedTransactionInfo
        else { return nil }
        let signed = notification.signedDate?.millisecondsSince1970 ?? receivedDate
        self.init(notificationUUID: uuid, transactionID: transactionID,
                  originalTransactionID: transaction?.originalTransactionId ?? transactionID, transactionJWS: jws,
                  reason: notification.data?.consumptionRequestReason?.rawValue, receivedDate: receivedDate,
                  deadlineDate: signed + Self.answerWindowMilliseconds)
    }
}
