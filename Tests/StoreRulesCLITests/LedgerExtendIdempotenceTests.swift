import Foundation
import ServiceCommandLine
import StoreCore
import Testing
import TestPrerequisites

/// `ledger extend` compensates each subscriber once per incident, the incident known by what it
/// means: saved again in other words it extends nobody again, changed it is another incident, a
/// subscriber sent its own request is not reached again by a mass extension, and records written
/// under the incident file's digest (as earlier versions keyed them) still count; on SQLite and
/// on PostgreSQL.
@Suite struct LedgerExtendIdempotenceTests {
    @Test("on SQLite, the same incident saved again in other words extends nobody again, and a changed incident is a new one")
    func resavedIncidentOnSQLite() throws {
        try resavedIncident(.sqlite)
    }

    @Test("on PostgreSQL, the same incident saved again in other words extends nobody again, and a changed incident is a new one",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func resavedIncidentOnPostgreSQL() throws {
        try resavedIncident(.postgres)
    }

    func resavedIncident(_ backend: LedgerReconcileTests.Backend) throws {
        let loop = try CompensationLoop(backend)
        for (customer, product) in [("ana", "pass.premium"), ("ben", "pass.premium"), ("cara", "pass.family")] {
            try loop.subscribe(customer, to: product)
        }
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 29 * 3600)
        let end = start.addingTimeInterval(29 * 3600 + 300)
        let first = try loop.incident(#"{"start":"\#(start.formatted(.iso8601))","end":"\#(end.formatted(.iso8601))","#
                                      + #""reason":"feeder cams down","products":["pass.premium","pass.family"]}"#, named: "incident.json")
        let applied = try loop.report(first)
        #expect(CompensationLoop.summary(applied, "sent") == 2, "one mass extension and one single: \(applied)")
        #expect(try loop.extensionsSent() == ["ana": 1, "ben": 1, "cara": 1])

        let offset = ISO8601DateFormatter()
        offset.timeZone = TimeZone(secondsFromGMT: 2 * 3600)
        let resaved = try loop.incident("""
            {
                "products" : [ "pass.family", "pass.premium" ],
                "reason" : "feeder cams down",
                "end" : "\(offset.string(from: end))",
                "start" : \(Int(start.timeIntervalSince1970))
            }

            """, named: "incident-resaved.json")
        let planned = try loop.report(resaved, dryRun: true)
        #expect(planned["incident_digest"] as? String == applied["incident_digest"] as? String)
        for (customer, subscriber) in CompensationLoop.subscribers(planned) {
            #expect(subscriber["already_sent"] as? Bool == true, "\(customer): \(subscriber)")
            #expect(subscriber["sent_date"] is String, "\(customer): \(subscriber)")
            #expect(Set(subscriber.keys) == ["customer", "original_transaction_id", "product_id", "days", "reason", "why", "failed", "mass",
                                             "already_sent", "sent_date"], "every documented field, null when empty: \(subscriber)")
            #expect(subscriber["why"] is NSNull, "\(customer): \(subscriber)")
        }
        let again = try loop.report(resaved)
        #expect(CompensationLoop.summary(again, "sent") == 0 && CompensationLoop.summary(again, "already_sent") == 2, "\(again)")
        #expect(try loop.extensionsSent() == ["ana": 1, "ben": 1, "cara": 1], "the same incident saved again extends nobody again")

        let changed = try loop.incident(#"{"start":"\#(start.formatted(.iso8601))","end":"\#(end.formatted(.iso8601))","#
                                        + #""reason":"feeder cams down","products":["pass.family"]}"#, named: "incident-family.json")
        let plannedChange = try loop.report(changed, dryRun: true)
        #expect(CompensationLoop.subscribers(plannedChange).keys.sorted() == ["cara"])
        #expect(CompensationLoop.subscribers(plannedChange)["cara"]?["already_sent"] as? Bool == false, "\(plannedChange)")
        let appliedChange = try loop.report(changed)
        #expect(CompensationLoop.summary(appliedChange, "sent") == 1, "\(appliedChange)")
        #expect(try loop.extensionsSent() == ["ana": 1, "ben": 1, "cara": 2], "another incident is compensated on its own")
    }

    @Test("on SQLite, a subscriber sent its own extension is not extended again when its product later has a mass extension")
    func ownRequestThenMassOnSQLite() throws {
        try ownRequestThenMass(.sqlite)
    }

    @Test("on PostgreSQL, a subscriber sent its own extension is not extended again when its product later has a mass extension",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func ownRequestThenMassOnPostgreSQL() throws {
        try ownRequestThenMass(.postgres)
    }

    func ownRequestThenMass(_ backend: LedgerReconcileTests.Backend) throws {
        let loop = try CompensationLoop(backend)
        try loop.subscribe("ben", to: "pass.premium")
        let now = Date()
        let incident = try loop.incident(#"{"start":"\#(now.addingTimeInterval(-3600).formatted(.iso8601))","#
                                         + #""end":"\#(now.addingTimeInterval(600).formatted(.iso8601))","reason":"sync down"}"#,
                                         named: "incident.json")
        let alone = try loop.report(incident)
        #expect(CompensationLoop.summary(alone, "sent") == 1, "\(alone)")
        try loop.subscribe("cara", to: "pass.premium")
        let both = try loop.report(incident)
        #expect(CompensationLoop.summary(both, "sent") == 1 && CompensationLoop.summary(both, "already_sent") == 1, "\(both)")
        #expect(CompensationLoop.subscribers(both).values.allSatisfy { $0["mass"] as? Bool == false }, "\(both)")
        #expect(try loop.extensionsSent() == ["ben": 1, "cara": 1])
    }

    @Test("on SQLite, an extension recorded under the incident file's digest is not sent again for that file, nor, once it ran, for the incident saved again")
    func recordsUnderTheFileDigestOnSQLite() throws {
        try recordsUnderTheFileDigest(.sqlite)
    }

    @Test("on PostgreSQL, an extension recorded under the incident file's digest is not sent again for that file, nor, once it ran, for the incident saved again",
          .enabled(if: TestPrerequisite.runs(LedgerWorkspace.postgresServer != nil), "set STORERULES_TEST_POSTGRES_URL to a PostgreSQL server"))
    func recordsUnderTheFileDigestOnPostgreSQL() throws {
        try recordsUnderTheFileDigest(.postgres)
    }

    func recordsUnderTheFileDigest(_ backend: LedgerReconcileTests.Backend) throws {
        let loop = try CompensationLoop(backend)
        let ben = try loop.subscribe("ben", to: "pass.premium")
        let now = Date()
        let start = now.addingTimeInterval(-3600).formatted(.iso8601), end = now.addingTimeInterval(600).formatted(.iso8601)
        let text = #"{"start": "\#(start)", "end": "\#(end)", "reason": "sync down"}"# + "\n"
        let incident = try loop.incident(text, named: "incident.json")
        try LedgerLocation(loop.ledger).open().recordRenewalExtension(RenewalExtensionRecord(
            requestIdentifier: UUID().uuidString.lowercased(), incidentDigest: SHA256Digest.hex(of: Data(text.utf8)),
            originalTransactionID: ben, customerID: "ben", productID: "pass.premium", storefronts: nil, days: 1, reasonCode: 3,
            state: .sent, updatedDate: now.millisecondsSince1970))
        let planned = try loop.report(incident, dryRun: true)
        #expect(CompensationLoop.subscribers(planned)["ben"]?["already_sent"] as? Bool == true, "\(planned)")
        let applied = try loop.report(incident)
        #expect(CompensationLoop.summary(applied, "sent") == 0 && CompensationLoop.summary(applied, "already_sent") == 1, "\(applied)")
        let resaved = try loop.incident(#"{"reason":"sync down","end":"\#(end)","start":"\#(start)"}"#, named: "incident-resaved.json")
        let again = try loop.report(resaved)
        #expect(CompensationLoop.subscribers(again)["ben"]?["already_sent"] as? Bool == true, "\(again)")
        #expect(CompensationLoop.summary(again, "sent") == 0 && CompensationLoop.summary(again, "already_sent") == 1, "\(again)")
        #expect(try loop.extensionsSent().isEmpty)
    }
}
