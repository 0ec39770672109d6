import Foundation
import Testing
@testable import StoreCore
import SQLiteLedger
import TestPrerequisites

/// Schema 4 keys a transaction's versions by the SHA-256 of their JWS instead of the JWS itself.
@Suite struct LedgerVersionDigestMigrationTests {
    /// A transaction bought, then refunded in a later signed version.
    private static let bought = LedgerFixtures.transaction(id: "9000", quantity: 2)
    private static let refunded = LedgerFixtures.transaction(id: "9000", quantity: 2, signedAt: 60_000, revokedAt: 60_000)

    @Test("a ledger file of schema 3 keeps every version, keyed by its digest, and still deduplicates")
    func schemaThreeFilesMigrate() throws {
        let directory = try SQLiteTemporaryDirectory()
        let path = directory.path("ledger.sqlite")
        do {
            let ledger = try Ledger(path: path)
            for payload in [Self.bought, Self.refunded] {
                try ledger.ingest(transaction: payload, jwsRepresentation: LedgerFixtures.jws(payload), customerID: "ada",
                                  decide: LedgerFixtures.pelletsPolicy)
            }
            // The file as schema 3 left it: versions keyed by their whole JWS.
            try ledger.sqlite.write { connection in
                try connection.execute(script: """
                    CREATE TABLE schema_three_version (
                        transaction_id TEXT NOT NULL REFERENCES store_transaction (transaction_id),
                        jws TEXT NOT NULL,
                        signed_date INTEGER NOT NULL,
                        revocation_date INTEGER,
                        received_date INTEGER NOT NULL,
                        PRIMARY KEY (transaction_id, jws)
                    ) STRICT;
                    INSERT INTO schema_three_version
                        SELECT transaction_id, jws, signed_date, revocation_date, received_date FROM transaction_version;
                    DROP TABLE transaction_version;
                    ALTER TABLE schema_three_version RENAME TO transaction_version;
                    DROP TABLE merchandising_event;
                    DROP TABLE notification_conflict;
                    DROP TABLE reconciliation_mark;
                    DROP TABLE consumption_request;
                    DROP TABLE renewal_extension;
                    DROP TABLE experiment_exposure;
                    DROP TABLE experiment_phase;
                    DROP TABLE outgoing_event;
                    DROP TABLE outgoing_event_state;
                    PRAGMA user_version = 3;
                    """)
            }
        }
        let migrated = try Ledger(path: path)
        #expect(try SQLiteLedgerMigrationHost(database: migrated.sqlite).schemaVersion() == Ledger.schemaVersion)
        let versions = try migrated.versions(ofTransaction: "9000")
        #expect(versions.map(\.jwsRepresentation) == [LedgerFixtures.jws(Self.bought), LedgerFixtures.jws(Self.refunded)])
        let digests = try migrated.sqlite.read { connection in
            try connection.fetchAll("SELECT jws, jws_digest FROM transaction_version").map { row in
                (try row.decode(String.self, column: "jws"), try row.decode(String.self, column: "jws_digest"))
            }
        }
        #expect(digests.count == 2)
        for (jws, digest) in digests {
            #expect(digest == SHA256Digest.hex(of: jws))
        }
        let again = try migrated.ingest(transaction: Self.refunded, jwsRepresentation: LedgerFixtures.jws(Self.refunded),
                                        customerID: "ada", decide: LedgerFixtures.pelletsPolicy)
        #expect(again.storage == .unchanged)
        #expect(try migrated.versions(ofTransaction: "9000").count == 2)
        #expect(try migrated.balance(of: "pellet", customerID: "ada") == 0)
        #expect(try migrated.checkInvariants().isEmpty)
    }

    @Test("the digest is SHA-256 in lowercase hexadecimal, over the JWS's UTF-8 bytes")
    func digestIsSHA256Hex() {
        #expect(SHA256Digest.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex(of: "é") == "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c")
    }
}
