import Foundation
import StoreCore
import StorePolicy
import StoreService
import StoreTesting
import Testing
import TestPrerequisites

/// Three instances of the service over one ledger deciding a new customer's storefront at the
/// same moment store one exposure, and every one of them shows the variant stored.
@Suite struct ExposureRaceBackendTests {
    final class Plans: @unchecked Sendable {
        private let lock = NSLock()
        private var plans: [StorefrontPlan] = []
        private var failures: [String] = []

        func add(_ plan: StorefrontPlan) { lock.withLock { plans.append(plan) } }
        func fail(_ error: any Error) { lock.withLock { failures.append("\(error)") } }
        var all: (plans: [StorefrontPlan], failures: [String]) { lock.withLock { (plans, failures) } }
    }

    @Test(arguments: ServedStoreLoop.backends)
    func threeInstancesStoreOneVariant(backend: String) throws {
        let directory = try TestFolders.make("exposure-race")
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try SigningAuthority.generate()
        let configuration = ServiceConfiguration(
            folder: ServedStoreLoop.packageRoot.appending(path: "Examples/BackyardBirds").path,
            ledger: try ServedStoreLoop.freshLedger(backend, in: directory),
            rootCertificates: [authority.rootCertificate], bundleId: ServedStoreLoop.bundleID, environment: .sandbox)
        let services = try (0..<3).map { _ in try Service(configuration: configuration) }
        for round in 0..<10 {
            let customer = "racer\(round)"
            let decided = Plans()
            DispatchQueue.concurrentPerform(iterations: services.count) { index in
                do {
                    decided.add(try services[index].storefrontPlan(customerID: customer, placement: "store"))
                } catch {
                    decided.fail(error)
                }
            }
            let (plans, failures) = decided.all
            #expect(failures.isEmpty, "\(failures)")
            let stored = try services[0].ledger.exposures(customerID: customer)
            #expect(stored.count == 1 && stored.first?.experiment == "sampler_hero", "\(stored)")
            let hero = stored.first?.variant == "sampler" ? "food.sampler" : "pellet.box"
            let shown = plans.map { $0.products.first { $0.style == .large }?.id }
            #expect(shown == [hero, hero, hero], "every instance shows the stored variant: \(shown)")
        }
    }
}
