import Foundation

/// Runs one ``FuzzTarget`` on inputs, with whatever the target needs made once.
///
/// The fuzz executables call ``run(_:)`` for every input libFuzzer generates; the regression
/// tests call it for every seed and every file kept in `Fuzz/Regressions`.
public final class FuzzHarness {
    /// The target this harness drives.
    public let target: FuzzTarget
    private let body: (Data) -> Void
    private let seeds: () throws -> [Data]

    /// Prepares `target`. `packageRoot` is the StoreRules package folder, whose examples give
    /// the policy and catalog that the service target serves.
    public init(_ target: FuzzTarget, packageRoot: URL) throws {
        self.target = target
        switch target {
        case .signedData:
            let fuzzer = try SignedDataFuzzer()
            body = fuzzer.verify
            seeds = fuzzer.signedSeeds
        case .payloadJSON:
            let fuzzer = try SignedDataFuzzer()
            body = SignedDataFuzzer.decodePayloads
            seeds = fuzzer.payloadSeeds
        case .catalog:
            body = PolicyInputFuzzer.decodeCatalog
            seeds = { try PolicyInputFuzzer.catalogSeeds(packageRoot: packageRoot) }
        case .policyContext:
            body = PolicyInputFuzzer.decodeContext
            seeds = { PolicyInputFuzzer.contextSeeds }
        case .journey:
            body = PolicyInputFuzzer.decodeJourney
            seeds = { try PolicyInputFuzzer.journeySeeds(packageRoot: packageRoot) }
        case .serviceRequest:
            let fuzzer = try ServiceRequestFuzzer(packageRoot: packageRoot)
            body = fuzzer.answer
            seeds = fuzzer.requestSeeds
        case .httpRequest:
            let fuzzer = try HTTPRequestFuzzer(packageRoot: packageRoot)
            body = fuzzer.answer
            seeds = fuzzer.requestSeeds
        case .httpConnection:
            let fuzzer = try HTTPConnectionFuzzer(packageRoot: packageRoot)
            body = fuzzer.serve
            seeds = { HTTPConnectionFuzzer.seeds }
        case .serviceEdge:
            body = ServiceEdgeFuzzer.parse
            seeds = { ServiceEdgeFuzzer.seeds }
        case .luaResult:
            let fuzzer = try LuaResultFuzzer()
            body = fuzzer.decode
            seeds = { LuaResultFuzzer.seeds }
        case .appStoreAPI:
            let fuzzer = try AppStoreAPIFuzzer(packageRoot: packageRoot)
            body = fuzzer.decode
            seeds = fuzzer.seeds
        case .policySource:
            let fuzzer = try PolicySourceFuzzer()
            body = fuzzer.load
            seeds = { PolicySourceFuzzer.seeds }
        }
    }

    /// Feeds one input to the target. Returns normally for every input.
    public func run(_ input: Data) {
        body(input)
    }

    /// Inputs to start fuzzing from: real files and payloads signed for this harness.
    ///
    /// - Throws: ``MissingFuzzSeeds`` when a folder of the package the seeds are read from
    ///   (the examples) is missing or holds none of them.
    public func seedInputs() throws -> [Data] {
        try seeds()
    }
}
