import Foundation
import Testing

/// `serve`'s standard error is a service's log: a failure at start is one line too, whatever
/// the reason's own line breaks (libpq's advice on a refused connection spans two).
@Suite struct ServeStartupFailureTests {
    @Test("a ledger that cannot be reached at start is one line on standard error, and exit status 1")
    func unreachableLedgerIsOneLine() throws {
        let result = try CommandRunner.run(
            ["serve", UsageErrorStatusTests.birds, "--ledger", "postgresql://storerules@127.0.0.1:1/ledger", "--environment", "Xcode",
             "--bundle-id", "com.example.backyardbirds", "--insecure-no-auth", "--listen", "127.0.0.1:0"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("storerules serve: the ledger postgresql://storerules@127.0.0.1:1/ledger: "),
                "\(result.standardError)")
        #expect(result.standardError.filter { $0 == "\n" }.count == 1, "\(result.standardError)")
    }
}
