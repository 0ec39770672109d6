import Foundation
import ServiceCommandLine
import SQLiteLedger
import StoreCore
import StoreTesting

/// Storefront GETs through `storerules serve` under wrk with a running experiment against the
/// same run without one: the same policy folder, once as it is and once with its
/// `policy.experiments` declaration taken out and every `ctx.experiments.NAME` read as `nil`.
/// Customers are taken in turn, so each one's first GET records an exposure and later ones
/// only read it back. Each round runs without the experiment, then with it on a new ledger
/// (every customer new to it), then with it again on that ledger (every customer returning),
/// then without it again.
struct ExperimentStorefrontBench {
    /// Rounds of the three runs, taken in turn; each ratio is the median of its rounds'.
    static let rounds = 5
    /// Connections wrk keeps open.
    static let connections = 64
    /// Customers the storefront requests go to, in turn.
    static let customers = 2_000

    let executable: URL
    let folder: URL
    let seconds: Int
    private let workspace: URL
    private let appKey = "bench-app-key-" + UUID().uuidString

    /// A benchmark of the `storerules` binary at `executable` serving `folder`, whose policy
    /// must declare experiments; each run lasts `seconds`.
    init(executable: URL, folder: URL, seconds: Int) throws {
        self.executable = executable
        self.folder = folder
        self.seconds = seconds
        workspace = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-experiment-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        try "app \(appKey)\n".write(to: file("keys"), atomically: true, encoding: .utf8)
        try HTTPBench.storefrontScript.write(to: file("storefront.lua"), atomically: true, encoding: .utf8)
    }

    /// Removes the workspace.
    func cleanUp() {
        try? FileManager.default.removeItem(at: workspace)
    }

    /// Measures ``rounds`` rounds: without the experiment and with it, each on a new SQLite
    /// ledger, then with it again on the ledger that recorded the exposures, then without it
    /// again on its ledger.
    func run() throws -> ExperimentStorefrontFigures {
        let policy = try String(contentsOf: folder.appendingPathComponent("policy.lua"), encoding: .utf8)
        let withoutFolder = file("without")
        try FileManager.default.copyItem(at: folder, to: withoutFolder)
        try Self.withoutExperiments(policy).write(to: withoutFolder.appendingPathComponent("policy.lua"), atomically: true, encoding: .utf8)
        var rounds: [ExperimentStorefrontFigures.Round] = []
        var exposures = 0
        for round in 0..<Self.rounds {
            let withoutLedger = file("without-\(round).sqlite").path
            let without = try measure(folder: withoutFolder, ledger: withoutLedger, registering: true)
            let ledger = file("with-\(round).sqlite").path
            let newCustomers = try measure(folder: folder, ledger: ledger, registering: true)
            exposures = try Database(path: ledger).read {
                try $0.fetchValue(Int.self, "SELECT count(*) FROM experiment_exposure") ?? 0
            }
            let returning = try measure(folder: folder, ledger: ledger, registering: false)
            let withoutAfter = try measure(folder: withoutFolder, ledger: withoutLedger, registering: false)
            rounds.append(.init(withoutExperiment: without, newCustomers: newCustomers, returningCustomers: returning,
                                withoutExperimentAfter: withoutAfter))
        }
        return ExperimentStorefrontFigures(rounds: rounds, customers: Self.customers, exposuresRecorded: exposures)
    }

    /// `policy` with its `policy.experiments = { … }` block (ending at a `}` alone on a line)
    /// removed and each `ctx.experiments.NAME` read replaced by `nil`.
    ///
    /// - Throws: ``BenchFailure`` when the policy declares no experiment that way.
    static func withoutExperiments(_ policy: String) throws -> String {
        guard let block = policy.range(of: #"(?ms)^policy\.experiments = \{.*?^\}\n"#, options: .regularExpression) else {
            throw BenchFailure("the policy has no 'policy.experiments = {' block ending with a '}' line")
        }
        var text = policy
        text.removeSubrange(block)
        return text.replacingOccurrences(of: #"ctx\.experiments\.[A-Za-z_][A-Za-z0-9_]*"#, with: "nil", options: .regularExpression)
    }

    private func file(_ name: String) -> URL {
        workspace.appendingPathComponent(name)
    }

    /// Serves `folder` over the ledger at `path`, after registering the customers in it when
    /// `registering` (a new ledger), and loads it.
    private func measure(folder: URL, ledger path: String, registering: Bool) throws -> WrkRun {
        if registering {
            let ledger = try Ledger(path: path)
            for index in 0..<Self.customers {
                try ledger.registerCustomer(id: "bench-\(index)", appAccountToken: nil)
            }
        }
        let root = try SigningAuthority.generate(name: "StoreRules Experiment Bench").rootCertificate.pemRepresentation
        try root.write(to: file("root.pem"), atomically: true, encoding: .utf8)
        let instance = try ServeInstance(executable: executable, arguments: [
            folder.path, "--ledger", path, "--root", file("root.pem").path, "--bundle-id", HTTPBench.bundleID,
            "--environment", "Sandbox", "--api-keys", file("keys").path, "--threads", "4", "--max-connections-per-address", "off",
        ])
        return try withExtendedLifetime(instance) {
            try WrkRun.run(url: instance.url + "/v1/customers/bench-0/storefront?placement=home", connections: Self.connections,
                           threads: 1, seconds: seconds, headers: ["Authorization: Bearer \(appKey)"],
                           script: file("storefront.lua").path, scriptArguments: [String(Self.customers), "0"])
        }
    }
}
