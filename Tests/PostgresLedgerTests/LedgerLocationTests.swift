import Foundation
import PostgresLedger
import ServiceCommandLine
import TestPrerequisites
import Testing

/// Where a ledger lives, and how it is printed: never with a password.
@Suite struct LedgerLocationTests {
    @Test("passwords are masked in user:password@ and in ?password=, in URLs and in errors that quote them",
          arguments: [
              ("postgresql://ledger:s3cret@db:5432/rules", "postgresql://ledger:***@db:5432/rules"),
              ("postgres://ledger@db/rules?password=s3cret&sslmode=require", "postgres://ledger@db/rules?password=***&sslmode=require"),
              ("postgres://ledger:s3cret@db/rules?PASSWORD=s3cret", "postgres://ledger:***@db/rules?PASSWORD=***"),
              ("connection to \"postgres://a:s3cret@h/d\" failed: password=s3cret rejected", "connection to \"postgres://a:***@h/d\" failed: password=*** rejected"),
              ("postgresql://ledger@db/rules", "postgresql://ledger@db/rules"),
              ("/var/lib/ledger.sqlite", "/var/lib/ledger.sqlite"),
          ])
    func passwordsAreMasked(text: String, masked: String) {
        #expect(LedgerLocation.maskingPasswords(in: text) == masked)
        #expect(!LedgerLocation.maskingPasswords(in: text).contains("s3cret"))
    }

    @Test("a connection names itself storerules in pg_stat_activity, unless the URL names it otherwise",
          .enabled(if: TestPrerequisite.runs(PostgresTestServer.isConfigured), PostgresTestServer.skipReason))
    func applicationName() throws {
        let server = try #require(LedgerBackend.postgresServerURL, PostgresTestServer.skipReason)
        let connection = try PostgresConnection(url: server)
        #expect(try connection.execute("SELECT current_setting('application_name') AS name").first?.decode(String.self, column: "name")
                == "storerules")
        let separator = server.contains("?") ? "&" : "?"
        let named = try PostgresConnection(url: server + separator + "application_name=billing")
        #expect(try named.execute("SELECT current_setting('application_name') AS name").first?.decode(String.self, column: "name")
                == "billing")
    }
}
