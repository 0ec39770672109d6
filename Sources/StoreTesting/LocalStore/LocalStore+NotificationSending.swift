import Foundation
import StoreCore
import SQLiteLedger

extension LocalStore {
    /// How long after a failed attempt the store tries again, as the App Store does: 1, 12, 24,
    /// 48 and 72 hours of the store's clock, then no more.
    public static let notificationRetryDelays: [TimeInterval] = [1, 12, 24, 48, 72].map { $0 * 3600 }

    /// Where the store sends its App Store Server Notifications, as App Store Connect's
    /// notification URL, or nil when it sends none.
    public func notificationURL() throws -> URL? {
        try state.read { try Self.notificationURL(in: $0) }
    }

    /// Sets (or, with nil, clears) the URL notifications are sent to from now on; those signed
    /// before are not sent.
    public func setNotificationURL(_ url: URL?) throws {
        try setURLSetting("notificationURL", to: url)
    }

    /// Sets (or, with nil, clears) the URL setting `name`.
    func setURLSetting(_ name: String, to url: URL?) throws {
        try serially {
            try state.write { connection in
                if let url {
                    try connection.execute(
                        """
                        INSERT INTO local_store_text_setting (name, value) VALUES (?, ?)
                        ON CONFLICT (name) DO UPDATE SET value = excluded.value
                        """,
                        [name, url.absoluteString])
                } else {
                    try connection.execute("DELETE FROM local_store_text_setting WHERE name = ?", [name])
                }
            }
        }
    }

    static func notificationURL(in connection: DatabaseConnection) throws -> URL? {
        try connection.fetchValue(String.self, "SELECT value FROM local_store_text_setting WHERE name = 'notificationURL'")
            .flatMap(URL.init(string:))
    }

    /// Sends every notification due by the store's clock, oldest due first, as the App Store
    /// sends them: `POST {"signedPayload": …}` to the notification URL; a `2xx` is a success,
    /// anything else a failure tried again after ``notificationRetryDelays``. Each attempt is
    /// recorded with its result, dated when it was due, so a clock moved forward days at once
    /// makes every attempt those days held.
    ///
    /// - Returns: How many attempts were made.
    @discardableResult
    public func sendDueNotifications() throws -> Int {
        guard let url = try notificationURL() else { return 0 }
        var attempts = 0
        while let due = try claimDueNotification(now: try currentTime()) {
            let result = NotificationSender.send(due.signedPayload, to: url)
            try record(result, of: due)
            attempts += 1
        }
        return attempts
    }

    /// A notification (or test notification) claimed for one attempt.
    private struct DueNotification {
        let sequence: Int?
        let testToken: String?
        let signedPayload: String
        let dueDate: Int64
        let attemptNumber: Int
    }

    /// The first notification due at `now`, its next attempt cleared and its count raised in
    /// the same write, so no other process of the store sends it too.
    private func claimDueNotification(now: Date) throws -> DueNotification? {
        try state.write { connection in
            let row = try connection.fetchOne(
                """
                SELECT sequence, NULL AS token, signed_payload, next_send_date, send_attempt_count FROM local_store_notification
                WHERE next_send_date IS NOT NULL AND next_send_date <= ?1
                UNION ALL
                SELECT NULL, token, signed_payload, next_send_date, send_attempt_count FROM local_store_test_notification
                WHERE next_send_date IS NOT NULL AND next_send_date <= ?1
                ORDER BY next_send_date, sequence LIMIT 1
                """,
                [now.millisecondsSince1970])
            guard let row else { return nil }
            let due = DueNotification(
                sequence: try row.decode(Int?.self, column: "sequence"), testToken: try row.decode(String?.self, column: "token"),
                signedPayload: try row.decode(column: "signed_payload"), dueDate: try row.decode(column: "next_send_date"),
                attemptNumber: try row.decode(Int.self, column: "send_attempt_count") + 1)
            if let sequence = due.sequence {
                try connection.execute(
                    "UPDATE local_store_notification SET next_send_date = NULL, send_attempt_count = ? WHERE sequence = ?",
                    [due.attemptNumber, sequence])
            } else {
                try connection.execute(
                    "UPDATE local_store_test_notification SET next_send_date = NULL, send_attempt_count = ? WHERE token = ?",
                    [due.attemptNumber, due.testToken])
            }
            return due
        }
    }

    /// Records an attempt and, after a failure with retries left, when to try again.
    private func record(_ result: String, of due: DueNotification) throws {
        try state.write { connection in
            try connection.execute(
                "INSERT INTO local_store_send_attempt (notification_sequence, test_token, attempt_date, result) VALUES (?, ?, ?, ?)",
                [due.sequence, due.testToken, due.dueDate, result])
            guard result != NotificationSender.success, due.attemptNumber <= Self.notificationRetryDelays.count else { return }
            let next = due.dueDate + Int64(Self.notificationRetryDelays[due.attemptNumber - 1] * 1000)
            if let sequence = due.sequence {
                try connection.execute("UPDATE local_store_notification SET next_send_date = ? WHERE sequence = ?", [next, sequence])
            } else {
                try connection.execute("UPDATE local_store_test_notification SET next_send_date = ? WHERE token = ?", [next, due.testToken])
            }
        }
    }

    /// Every attempt to send the notification `sequence` (or the test notification `testToken`), oldest first.
    func sendAttempts(ofNotification sequence: Int? = nil, testToken: String? = nil) throws -> [(date: Int64, result: String)] {
        try state.read { connection in
            try connection.fetchAll(
                """
                SELECT attempt_date, result FROM local_store_send_attempt
                WHERE notification_sequence IS ?1 AND test_token IS ?2 ORDER BY sequence
                """,
                [sequence, testToken]
            ).map { (try $0.decode(column: "attempt_date"), try $0.decode(column: "result")) }
        }
    }
}
