import Foundation
import Testing

/// Every file argument reads what a shell hands over: a FIFO, `/dev/stdin`, a regular file;
/// and says in one line why a path cannot be read.
@Suite struct FileArgumentTests {
    static let context = #"{"customer": {"id": "piped-customer", "status_known": true}}"#

    @Test("eval reads its --input from a FIFO and from /dev/stdin")
    func evalReadsPipes() throws {
        let fromFIFO = try CommandRunner.run(["eval", "Examples/BackyardBirds", "features",
                                              "--input", try NamedPipe(serving: Self.context).path])
        #expect(fromFIFO.status == 0, "\(fromFIFO.standardError)")
        #expect(fromFIFO.standardOutput.contains("piped-customer"))
        let fromStandardInput = try CommandRunner.run(["eval", "Examples/BackyardBirds", "features", "--input", "/dev/stdin"],
                                                      input: Self.context)
        #expect(fromStandardInput.status == 0, "\(fromStandardInput.standardError)")
        #expect(fromStandardInput.standardOutput.contains("piped-customer"))
    }

    @Test("storefront reads --customer from a FIFO")
    func storefrontReadsAFIFO() throws {
        let result = try CommandRunner.run(["storefront", "Examples/BackyardBirds", "--json",
                                            "--customer", try NamedPipe(serving: Self.context).path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"placement\""))
    }

    @Test("catalog reads a .storekit file from a FIFO and from standard input")
    func catalogReadsPipes() throws {
        let text = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds/Products.storekit"),
                              encoding: .utf8)
        let fromFIFO = try CommandRunner.run(["catalog", try NamedPipe(serving: text).path])
        #expect(fromFIFO.status == 0, "\(fromFIFO.standardError)")
        #expect(fromFIFO.standardOutput.contains("pellet.box"))
        let fromStandardInput = try CommandRunner.run(["catalog", "-"], input: text)
        #expect(fromStandardInput.standardOutput.contains("pellet.box"), "\(fromStandardInput.standardError)")
    }

    @Test("verify reads the JWS and the --root certificates from FIFOs")
    func verifyReadsFIFOs() throws {
        let shop = try StoreCommandTests.Shop()
        let purchase = try shop.json("purchase", "pellet.box")
        let jws = try #require(purchase["signed_transaction_info"] as? String)
        let root = try shop.run("certificate").standardOutput
        let result = try CommandRunner.run(["verify", try NamedPipe(serving: jws).path,
                                            "--root", try NamedPipe(serving: root).path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"productId\" : \"pellet.box\""))
    }

    @Test("a catalog path that is a folder says so and names the folder's one .storekit file")
    func catalogFolderIsExplained() throws {
        let result = try CommandRunner.run(["catalog", "Examples/BackyardBirds"])
        #expect(result.status == 1)
        #expect(result.standardError == "storerules catalog: Examples/BackyardBirds is a folder, not a .storekit file; "
                + "did you mean Examples/BackyardBirds/Products.storekit?\n")
    }

    @Test("a missing file or a folder given as --input is one line saying which")
    func unreadableInputsAreOneLine() throws {
        let missing = try CommandRunner.run(["eval", "Examples/BackyardBirds", "features", "--input", "no-such.json"])
        #expect(missing.status == 1)
        #expect(missing.standardError == "storerules eval: cannot read no-such.json: no such file\n")
        let folder = try CommandRunner.run(["eval", "Examples/BackyardBirds", "features", "--input", "Examples"])
        #expect(folder.standardError == "storerules eval: cannot read Examples: it is a folder\n")
    }
}
