import CommandLineOptions
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
              ("postgress://ledger:s3cret@db/rules", "postgress://ledger:***@db/rules"),
              ("postgres:s3cret@db", "postgres:***@db"),
              ("--ledger 'ledger:s3cret@db/rules' looks like USER@HOST", "--ledger 'ledger:***@db/rules' looks like USER@HOST"),
              ("host=db user=ledger password=s3cret dbname=rules", "host=db user=ledger password=*** dbname=rules"),
              ("host=db passwd=s3cret", "host=db passwd=***"),
              ("host=db password='s3cret with spaces' dbname=rules", "host=db password=*** dbname=rules"),
              ("mailto ana@example.com", "mailto ana@example.com"),
          ])
    func passwordsAreMasked(text: String, masked: String) {
        #expect(LedgerLocation.maskingPasswords(in: text) == masked)
        #expect(!LedgerLocation.maskingPasswords(in: text).contains("s3cret"))
    }

    @Test("a plain path, ./PATH and sqlite:PATH are SQLite files; postgres:// and postgresql:// URLs are PostgreSQL",
          arguments: [
              ("ledger.sqlite", LedgerLocation.sqlite(path: "ledger.sqlite")),
              ("./postgres:pw@db", .sqlite(path: "./postgres:pw@db")),
              ("/var/lib/storerules/ledger.sqlite", .sqlite(path: "/var/lib/storerules/ledger.sqlite")),
              ("sqlite:ledger.sqlite", .sqlite(path: "ledger.sqlite")),
              ("sqlite:///var/lib/ledger.sqlite", .sqlite(path: "/var/lib/ledger.sqlite")),
              ("SQLite:data/a@b.sqlite", .sqlite(path: "data/a@b.sqlite")),
              ("postgres://ledger@db/rules", .postgres(url: "postgres://ledger@db/rules")),
              ("PostgreSQL://ledger@db/rules", .postgres(url: "postgresql://ledger@db/rules")),
              ("POSTGRES://ledger:pw@db/rules", .postgres(url: "postgres://ledger:pw@db/rules")),
          ])
    func locationsAreReadUnambiguously(text: String, location: LedgerLocation) throws {
        #expect(try LedgerLocation(text) == location)
    }

    @Test("what is neither a path nor a URL StoreRules takes is refused with the reason and without its password",
          arguments: [
              ("postgres:s3cret@db", "begins with the scheme 'postgres:'"),
              ("postgress://ledger:s3cret@db/rules", "did you mean postgres://"),
              ("postgresql:/ledger:s3cret@db", "did you mean postgresql://"),
              ("mysql://ledger:s3cret@db/rules", "neither postgres://, postgresql:// nor sqlite:"),
              ("sqlite3:ledger.sqlite", "did you mean sqlite:PATH"),
              ("ledger:s3cret@db", "begins with the scheme 'ledger:'"),
              ("ledger@db.internal/rules", "looks like USER@HOST"),
              ("host=db user=ledger password=s3cret dbname=rules", "key/value connection string ('host=…')"),
              ("dbname=rules", "key/value connection string ('dbname=…')"),
              ("", "--ledger is empty"),
              ("  ", "--ledger is empty"),
              ("sqlite:", "names no file"),
          ])
    func ambiguousLocationsAreRefused(text: String, reason: String) {
        #expect {
            try LedgerLocation.option(text, named: "--from")
        } throws: { error in
            ((error as? UsageError)?.message ?? "").hasPrefix("--from")
        }
        #expect {
            try LedgerLocation(text)
        } throws: { error in
            let message = (error as? LedgerLocationError)?.description ?? ""
            return message.contains(reason) && !message.contains("s3cret")
        }
    }

    @Test("a USER@HOST value is quoted as given, with nothing masked that is not a password, and no suggestion mangled")
    func userAtHostIsQuotedAsGiven() {
        #expect {
            try LedgerLocation("ana@db.internal")
        } throws: { error in
            let message = (error as? LedgerLocationError)?.description ?? ""
            return message.contains("'ana@db.internal'") && !message.contains("***")
        }
        #expect {
            try LedgerLocation("host=db dbname=rules")
        } throws: { error in
            !((error as? LedgerLocationError)?.description ?? "").contains("***")
        }
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
