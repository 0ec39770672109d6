import Foundation
import StoreFuzzing
import Testing

/// Every input kept for the fuzz targets — the seeds and each crash found once, in
/// `Fuzz/Regressions` — runs through its target without a trap, as it must under
/// `scripts/fuzz.sh`.
@Suite struct FuzzKeptInputReplayTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files kept for `target` under `Fuzz/Regressions/<target>/`; none when it has no folder.
    static func regressionInputs(for target: FuzzTarget) throws -> [Data] {
        let directory = packageRoot.appending(path: "Fuzz/Regressions/\(target.rawValue)")
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.sorted().map { try Data(contentsOf: directory.appending(path: $0)) }
    }

    @Test("the seeds and every regression input of a fuzz target run without a trap",
          arguments: FuzzTarget.allCases)
    func keptInputsRun(target: FuzzTarget) throws {
        let harness = try FuzzHarness(target, packageRoot: Self.packageRoot)
        let seeds = try harness.seedInputs()
        #expect(!seeds.isEmpty)
        for input in seeds + (try Self.regressionInputs(for: target)) {
            harness.run(input)
        }
    }

    @Test("a target whose seed folder is missing gives no seeds but an error naming the folder",
          arguments: [FuzzTarget.catalog, .journey])
    func missingSeedFolderFails(target: FuzzTarget) throws {
        let elsewhere = FileManager.default.temporaryDirectory.appending(path: "storerules-no-examples-\(UUID().uuidString)")
        let harness = try FuzzHarness(target, packageRoot: elsewhere)
        let error = try #require(throws: MissingFuzzSeeds.self) { try harness.seedInputs() }
        #expect(error.folder.hasSuffix("/Examples/BackyardBirds"), "\(error)")
        #expect(!error.folderExists)
    }

    @Test("every regression input is kept under the name of an existing fuzz target")
    func regressionFoldersNameTargets() throws {
        let directory = Self.packageRoot.appending(path: "Fuzz/Regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let known = Set(FuzzTarget.allCases.map(\.rawValue))
        for name in names where !name.hasPrefix(".") && name != "README.md" {
            #expect(known.contains(name), "Fuzz/Regressions/\(name) is not a fuzz target")
        }
    }
}

/// `scripts/fuzz.sh`, which CI runs, fuzzes every target there is.
@Suite struct FuzzScriptTargetListTests {
    @Test("scripts/fuzz.sh's default targets are exactly FuzzTarget's cases")
    func scriptListsEveryTarget() throws {
        let script = try String(contentsOf: FuzzKeptInputReplayTests.packageRoot.appending(path: "scripts/fuzz.sh"), encoding: .utf8)
        // The default list, not `targets=("$@")`.
        let line = try #require(script.split(separator: "\n").first {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("targets=(") && !$0.contains("$")
        })
        let listed = line.split(separator: "(", maxSplits: 1)[1].split(separator: ")")[0].split(separator: " ").map(String.init)
        #expect(Set(listed) == Set(FuzzTarget.allCases.map(\.rawValue)), "fuzz.sh lists \(listed)")
        #expect(listed.count == FuzzTarget.allCases.count, "each once")
    }
}
