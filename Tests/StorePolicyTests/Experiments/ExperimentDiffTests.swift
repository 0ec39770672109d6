import Foundation
import StorePolicy
import Testing

/// `diff` names an experiment that is new, changed (in a new phase or the same) or removed.
@Suite struct ExperimentDiffTests {
    static func side(_ experiments: String) -> PolicyDiff.Side {
        PolicyDiff.Side(source: PolicySource(text: """
            return {
                experiments = \(experiments),
                show_merchandising = function(ctx, placement) return true end,
            }
            """), catalog: .empty)
    }

    @Test func addedChangedAndRemovedExperimentsAreNamedWithTheirPhases() throws {
        let old = Self.side("""
            { reweighted = { variants = { control = 50, b = 50 } }, narrowed = { variants = { control = 1, b = 1 } },
              dropped = { variants = { control = 1, b = 1 } }, same = { variants = { control = 1, b = 1 } } }
            """)
        let new = Self.side("""
            { reweighted = { variants = { control = 40, b = 60 } }, narrowed = { variants = { control = 1, b = 1 }, traffic = 20 },
              fresh = { variants = { control = 1, b = 1 } }, same = { variants = { control = 1, b = 1 } } }
            """)
        let report = try PolicyDiff(old: old, new: new).compare(hooks: ["show_merchandising"], placements: ["home"])
        let byName = Dictionary(uniqueKeysWithValues: report.experiments.map { ($0.name, $0) })
        #expect(byName.keys.sorted() == ["dropped", "fresh", "narrowed", "reweighted"])
        #expect(byName["fresh"]?.kind == .added && byName["dropped"]?.kind == .removed)
        #expect(byName["reweighted"]?.startsNewPhase == true)
        #expect(byName["reweighted"]?.details == ["variants b 50, control 50 → b 60, control 40"])
        #expect(byName["narrowed"]?.startsNewPhase == false && byName["narrowed"]?.details == ["traffic 100 % → 20 %"])
    }
}
