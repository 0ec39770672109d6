import Foundation
import StoreFuzzing
import Testing

/// Every input kept for the fuzz targets — the seeds, the committed corpus in `Fuzz/Corpus`
/// and each crash found once, in `Fuzz/Regressions` — runs through its target without a trap,
/// as it must under `scripts/fuzz.sh`.
@Suite struct FuzzCorpusReplayTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files kept for `target` under `Fuzz/<folder>/<target>/`.
    static func keptInputs(for target: FuzzTarget, in folder: String) throws -> [Data] {
        let directory = packageRoot.appending(path: "Fuzz/\(folder)/\(target.rawValue)")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return try names.sorted().map { try Data(contentsOf: directory.appending(path: $0)) }
    }

    @Test("the seeds, the corpus and every regression input of a fuzz target run without a trap",
          arguments: FuzzTarget.allCases)
    func keptInputsRun(target: FuzzTarget) throws {
        let harness = try FuzzHarness(target, packageRoot: Self.packageRoot)
        let seeds = try harness.seedInputs()
        #expect(!seeds.isEmpty)
        let inputs = seeds + (try Self.keptInputs(for: target, in: "Corpus")) + (try Self.keptInputs(for: target, in: "Regressions"))
        for input in inputs {
            harness.run(input)
        }
    }

    @Test("every regression input is kept under the name of an existing fuzz target")
    func regressionFoldersNameTargets() throws {
        let directory = Self.packageRoot.appending(path: "Fuzz/Regressions")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let known = Set(FuzzTarget.allCases.map(\.rawValue))
        for name in names where !name.hasPrefix(".") && name != "README.md" {
            #expect(known.contains(name), "Fuzz/Regressions/\(name) is not a fuzz target")
        }
    }
}
