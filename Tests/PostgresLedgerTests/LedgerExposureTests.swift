import Foundation
import SQLiteLedger
import StoreCore
import Synchronization
import Testing

/// Exposures to experiments: stored once per customer, experiment and phase, the first one
/// winning however many writers record at once, and read with the customer's snapshot.
@Suite struct LedgerExposureTests {
    typealias Payloads = LedgerPayloads

    static func exposure(_ customerID: String = "ana", experiment: String = "annual_first", phase: String = "3f9a0c12e4b7",
                         variant: String = "control", at offset: Int64 = 0, policyVersion: String = "v1",
                         placement: String? = "home") -> ExperimentExposure {
        ExperimentExposure(customerID: customerID, experiment: experiment, phase: phase, variant: variant,
                           exposedDate: Payloads.date(offset), policyVersion: policyVersion, hook: "storefront", placement: placement)
    }

    static func phase(experiment: String = "annual_first", phase: String = "3f9a0c12e4b7", traffic: Int = 100,
                      at offset: Int64 = 0) -> ExperimentPhaseRecord {
        ExperimentPhaseRecord(
            experiment: experiment, phase: phase,
            variants: [ExperimentVariantWeight(name: "control", weight: 50), ExperimentVariantWeight(name: "annual", weight: 50)],
            traffic: traffic, firstRecordedDate: Payloads.date(offset))
    }

    @Test("the first exposure is stored with its phase and customer; a later one returns the stored exposure and changes nothing",
          arguments: LedgerBackend.available)
    func firstExposureWins(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let first = Self.exposure()
        #expect(try ledger.recordExposures([first], phases: [Self.phase()]) == [first])
        #expect(try ledger.customer(id: "ana") != nil, "the customer is recorded")
        #expect(try ledger.exposures(customerID: "ana") == [first])
        let phases = try ledger.experimentPhases(experiment: "annual_first")
        #expect(phases == [Self.phase()])
        #expect(phases.first?.variants.map(\.name) == ["annual", "control"], "variants sorted by name")

        let later = Self.exposure(variant: "annual", at: Payloads.day, policyVersion: "v2", placement: nil)
        #expect(try ledger.recordExposures([later], phases: [Self.phase(traffic: 10, at: Payloads.day)]) == [first])
        #expect(try ledger.storage.read { try $0.exposures() } == [first], "one row, as first stored")
        #expect(try ledger.experimentPhases(experiment: nil) == [Self.phase()])
        #expect(try ledger.customers().map(\.id) == ["ana"])
    }

    @Test("a customer's exposures read back by exposure time, then experiment and phase, whatever their keys' order",
          arguments: LedgerBackend.available)
    func exposuresReadInTimeOrder(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let early = Self.exposure(experiment: "zeta_copy", at: 1), late = Self.exposure(experiment: "alpha_copy", at: 9)
        let sameTime = Self.exposure(experiment: "alpha_copy", phase: "0000aaaa0000", at: 9)
        try ledger.recordExposures([late, sameTime, early], phases: [])
        #expect(try ledger.exposures(customerID: "ana") == [early, sameTime, late])
        #expect(try ledger.customerState(customerID: "ana").exposures == [early, sameTime, late])
    }

    @Test("a batch stores what is new and returns, in the order asked, what is stored for each experiment and phase",
          arguments: LedgerBackend.available)
    func batchReturnsStoredRows(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let stored = Self.exposure(experiment: "annual_first")
        try ledger.recordExposures([stored], phases: [])
        let asked = [Self.exposure(experiment: "paywall_copy", variant: "short", at: 5), Self.exposure(experiment: "annual_first", variant: "annual"),
                     Self.exposure("bo", experiment: "annual_first", variant: "annual")]
        let returned = try ledger.recordExposures(asked, phases: [Self.phase(experiment: "paywall_copy"), Self.phase()])
        #expect(returned == [asked[0], stored, asked[2]])
        #expect(try ledger.exposures(customerID: "ana") == [stored, asked[0]], "by exposure time")
        #expect(try ledger.exposures(customerID: "bo") == [asked[2]])
        #expect(try ledger.experimentPhases(experiment: nil).map(\.experiment) == ["annual_first", "paywall_copy"])
        #expect(try ledger.customers().map(\.id).sorted() == ["ana", "bo"])
    }

    @Test("customer ids equal as Swift strings but spelled in other bytes are two customers, each keeping the exposure recorded for it",
          arguments: LedgerBackend.available)
    func customerIDsAreToldApartByTheirBytes(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let precomposed = Self.exposure("caf\u{E9}", variant: "control"), decomposed = Self.exposure("cafe\u{301}", variant: "annual")
        #expect(precomposed.customerID == decomposed.customerID, "Swift compares the two ids as equal")
        #expect(try ledger.recordExposures([precomposed, decomposed], phases: [Self.phase()]) == [precomposed, decomposed])
        #expect(try ledger.exposures(customerID: "caf\u{E9}").map(\.variant) == ["control"])
        #expect(try ledger.exposures(customerID: "cafe\u{301}").map(\.variant) == ["annual"])
        #expect(try ledger.recordExposures([decomposed], phases: [Self.phase()]).map(\.variant) == ["annual"])
    }

    @Test("three writers exposing the same customers at once store one row each, with one variant, and all return it",
          arguments: LedgerBackend.available, [false, true])
    func concurrentWritersStoreOneRow(on backend: LedgerBackend, separateInstances: Bool) throws {
        let location = try backend.freshLocation()
        let shared = try location.open()
        let ledgers = try (0..<3).map { _ in separateInstances ? try location.open() : shared }
        let customers = (0..<5).map { "customer-\($0)" }
        let variants = ["control", "annual", "monthly"]
        let barrier = ThreadBarrier(parties: 3)
        let returned = Mutex<[[ExperimentExposure]]>([])
        try runOnThreads(3) { writer in
            let mine = customers.map { Self.exposure($0, variant: variants[writer], at: Int64(writer)) }
            try barrier.arriveAndWait()
            let kept = try ledgers[writer].recordExposures(mine, phases: [Self.phase(at: Int64(writer))])
            returned.withLock { $0.append(kept) }
        }
        let stored = try shared.storage.read { try $0.exposures() }
        #expect(stored.count == customers.count)
        #expect(returned.withLock { $0 }.allSatisfy { $0 == stored }, "every writer returns the rows stored")
        #expect(try shared.experimentPhases(experiment: nil).count == 1)
        for exposure in stored {
            let index = try #require(variants.firstIndex(of: exposure.variant))
            #expect(exposure == Self.exposure(exposure.customerID, variant: variants[index], at: Int64(index)))
        }
    }

    @Test("ledger check reports an exposure to a variant its recorded phase does not declare", arguments: LedgerBackend.available)
    func checkReportsUndeclaredVariants(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        try ledger.recordExposures([Self.exposure(variant: "annual"), Self.exposure("cy", phase: "unrecorded", variant: "weekly")],
                                   phases: [Self.phase()])
        #expect(try ledger.checkInvariants().isEmpty)
        try ledger.recordExposures([Self.exposure("bo", variant: "weekly")], phases: [])
        #expect(try ledger.checkInvariants() == [
            "customer bo was exposed to variant weekly of annual_first in phase 3f9a0c12e4b7, which declares only annual, control",
        ])
    }

    @Test("a customer's snapshot and state carry their exposures, read by every path the storage has",
          arguments: LedgerBackend.available)
    func snapshotCarriesExposures(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let payload = Payloads.transaction(id: "9500")
        try ledger.ingest(transaction: payload, jwsRepresentation: Payloads.jws(payload), customerID: "ana", decide: Payloads.grants)
        let exposures = [Self.exposure(experiment: "zeta", at: 2 * Payloads.day),
                         Self.exposure(experiment: "annual_first", variant: "annual \"quoted\" é", at: Payloads.day, placement: nil),
                         Self.exposure(experiment: "beta", at: Payloads.day)]
        try ledger.recordExposures(exposures, phases: [])
        try ledger.recordExposures([Self.exposure("bo")], phases: [])
        let expected = [exposures[1], exposures[2], exposures[0]]
        let atOnce = try ledger.storage.customerSnapshot(customerID: "ana")
        #expect(atOnce.exposures == expected)
        #expect(try ledger.storage.read { try $0.customerSnapshot(customerID: "ana", signedData: false) } == atOnce)
        if let sqlite = ledger.storage as? SQLiteLedgerStorage {
            #expect(try sqlite.customerSnapshotInOneStatement(customerID: "ana") == atOnce)
        }
        #expect(try ledger.customerState(customerID: "ana", signedData: false).exposures == expected)
        #expect(try ledger.customerState(customerID: "ana").exposures == expected)
        #expect(try ledger.storage.customerSnapshot(customerID: "nobody").exposures == [])
    }

    @Test("an exposure or phase record that breaks the rules is refused, and nothing of its batch is written",
          arguments: LedgerBackend.available)
    func invalidInputIsRefused(on backend: LedgerBackend) throws {
        let ledger = try backend.freshLedger()
        let valid = Self.exposure("bo")
        let refusedExposures: [(ExperimentExposure, String)] = [
            (Self.exposure(""), "the customer id is empty"),
            (Self.exposure(variant: "con\u{7}trol"), "an exposure's variant is 1 to 100 characters without control characters"),
            (Self.exposure(experiment: String(repeating: "x", count: 101)), "an exposure's experiment is 1 to 100"),
            (Self.exposure(phase: ""), "an exposure's phase is 1 to 100"),
            (Self.exposure(policyVersion: "v\n1"), "an exposure's policy version is 1 to 100"),
            (Self.exposure(placement: ""), "an exposure's placement, when given, is 1 to 100"),
        ]
        for (exposure, message) in refusedExposures {
            let error = try #require(throws: LedgerError.self) { try ledger.recordExposures([valid, exposure], phases: [Self.phase()]) }
            #expect(error.description.hasPrefix(message), "\(error)")
            #expect(error.isMalformedInput)
        }
        var duplicated = Self.phase()
        duplicated.variants.append(ExperimentVariantWeight(name: "control", weight: 1))
        var negative = Self.phase()
        negative.variants[0].weight = -1
        var allZero = Self.phase()
        allZero.variants = allZero.variants.map { ExperimentVariantWeight(name: $0.name, weight: 0) }
        let refusedPhases: [(ExperimentPhaseRecord, String)] = [
            (Self.phase(traffic: 101), "the traffic of annual_first is 101"),
            (duplicated, "a phase record of annual_first names a variant twice"),
            (negative, "the variant annual of annual_first has the weight -1"),
            (allZero, "the weights of the variants of annual_first add up to 0"),
            (Self.phase(phase: "p\u{0}"), "a phase record's phase is 1 to 100"),
        ]
        for (phase, message) in refusedPhases {
            let error = try #require(throws: LedgerError.self) { try ledger.recordExposures([valid], phases: [phase]) }
            #expect(error.description.hasPrefix(message), "\(error)")
        }
        #expect(throws: LedgerError.self) { try ledger.exposures(customerID: "") }
        #expect(try ledger.storage.read { try $0.exposures() } == [])
        #expect(try ledger.experimentPhases(experiment: nil) == [])
        #expect(try ledger.customers() == [])
    }
}
