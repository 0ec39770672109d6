import Foundation
import Testing
import TestPrerequisites

/// `storerules run`: a journey's steps as JSON lines, storefront pages, a broken journey's line
/// and the run's temporary folder. What the examples' journeys decide is tested in process
/// (ExampleJourneyTests).
@Suite struct RunCommandTests {
    private func steps(_ example: String) throws -> [[String: Any]] {
        let result = try CommandRunner.run(["run", "Examples/\(example)", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func jsonPrintsEachStepOnItsOwnLine() throws {
        let steps = try steps("CaffeinePal")
        #expect(steps.count == 8)
        #expect(steps.map { $0["number"] as? Int } == (1...8).map { $0 })
        #expect(steps.allSatisfy { $0["plan"] is [String: Any] && $0["features"] is [String] && $0["error"] == nil })
    }

    @Test func htmlWritesAStorefrontPagePerStep() throws {
        let pages = FileManager.default.temporaryDirectory.appendingPathComponent("run-pages-\(UUID().uuidString)")
        let result = try CommandRunner.run(["run", "Examples/CaffeinePal", "--html", pages.path], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted()
        #expect(names == (1...8).map { String(format: "step-%02d.html", $0) })
        let fifth = try String(contentsOf: pages.appendingPathComponent("step-05.html"), encoding: .utf8)
        #expect(fifth.contains("Subscribes to Pro"))
        #expect(fifth.contains("data-plan=\"pro.annual\""))
        #expect(result.standardOutput.contains("storefront pages in \(pages.path)"))
    }

    @Test func aBrokenJourneyIsOneClearLine() throws {
        let folder = try CommandRunner.policyFolder("return {}", files: ["journey.json": #"{"steps": [{"action": "dance"}]}"#])
        let catalog = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds/Products.storekit")
        try FileManager.default.copyItem(at: catalog, to: folder.appendingPathComponent("Products.storekit"))
        let result = try CommandRunner.run(["run", folder.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("unknown action \"dance\""), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("without --ledger the run removes its temporary folder, signing keys included; with it, keeps the ledger, the store state and the certificates")
    func theTemporaryFolderIsRemoved() throws {
        let temporary = try TestFolders.make("run-tmp")
        let result = try CommandRunner.run(["run", "Examples/CaffeinePal", "--json"], environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)

        let ledger = temporary.appendingPathComponent("kept.sqlite").path
        let kept = try CommandRunner.run(["run", "Examples/CaffeinePal", "--json", "--ledger", ledger], environment: ["TMPDIR": temporary.path])
        #expect(kept.status == 0, "\(kept.standardError)")
        #expect(FileManager.default.fileExists(atPath: ledger))
        #expect(FileManager.default.fileExists(atPath: ledger + ".certificates/root-certificate.pem"))
        #expect(FileManager.default.fileExists(atPath: ledger + ".store.sqlite"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).allSatisfy { $0.hasPrefix("kept.sqlite") })
    }
}
