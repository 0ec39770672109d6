import Foundation
import StoreCore
import StoreJourneys
import StorePolicy

/// The files and JSON a policy folder's user hands StoreRules: catalogs, contexts, journeys.
enum PolicyInputFuzzer {
    static func decodeCatalog(_ input: Data) {
        _ = try? Catalog(data: input, fileName: "fuzz.storekit")
    }

    /// Reads the input as `eval --input` and `eval --jsonl` do, as `ledger extend --incident`
    /// reads an incident file, and through `JSONDecoder`, which an embedding program may use on
    /// the same types (the hooks' arguments, and a consumption answer as the ledger reads it back).
    static func decodeContext(_ input: Data) {
        _ = try? PolicyContext.decode(json: input)
        _ = try? HookRequest.decode(json: input)
        _ = try? JSONDecoder().decode(PolicyContext.self, from: input)
        _ = try? JSONDecoder().decode(HookRequest.self, from: input)
        _ = try? Incident.decode(json: input)
        _ = try? JSONDecoder().decode(RefundRequest.self, from: input)
        _ = try? JSONDecoder().decode(RetentionRequest.self, from: input)
        _ = try? JSONDecoder().decode(RenewalSubscription.self, from: input)
        _ = try? JSONDecoder().decode(ConsumptionAnswer.self, from: input)
    }

    /// Reads the input as `run` reads a journey, and through `JSONDecoder`.
    static func decodeJourney(_ input: Data) {
        _ = try? Journey.decode(json: input)
        _ = try? JSONDecoder().decode(Journey.self, from: input)
    }

    /// The examples' catalogs, and the reference `.storekit` files beside the package when they
    /// are there (they live outside it).
    static func catalogSeeds(packageRoot: URL) throws -> [Data] {
        let examples = try files(in: [packageRoot.appending(path: "Examples/BackyardBirds"), packageRoot.appending(path: "Examples/CaffeinePal")],
                                 withExtension: "storekit")
        let reference = packageRoot.appending(path: "../shared/fixtures/storekit")
        guard FileManager.default.fileExists(atPath: reference.path) else { return examples }
        return examples + (try files(in: [reference], withExtension: "storekit"))
    }

    /// The examples' journeys.
    static func journeySeeds(packageRoot: URL) throws -> [Data] {
        try files(in: [packageRoot.appending(path: "Examples/BackyardBirds"), packageRoot.appending(path: "Examples/CaffeinePal")],
                  withExtension: "json")
    }

    /// Contexts of every shape the documentation shows, then each known hook's example
    /// `eval --jsonl` requests.
    static let contextSeeds: [Data] = ([
        #"{}"#,
        #"{"customer": {"status_known": true}}"#,
        #"{"now": 1750000000, "storefront": "USA", "locale": "en_US", "environment": "sandbox", "customer": {"id": "ana", "seed": 42, "status_known": true, "entitlements": ["pass.individual"], "subscriptions": {"6F3A93AB": {"product_id": "pass.individual", "state": "subscribed", "will_auto_renew": true, "group_level": 3}}, "balances": {"pellet": 5}, "attributes": {"cohort": "b"}}}"#,
    ] + HookRegistry.all.flatMap(\.exampleRequests)).map { Data($0.utf8) }

    /// The files of `folders` whose names end in `.suffix`.
    ///
    /// - Throws: ``MissingFuzzSeeds`` when a folder is missing or holds no such file, so a
    ///   target never fuzzes, or replays, without the seeds it is meant to start from.
    private static func files(in folders: [URL], withExtension suffix: String) throws -> [Data] {
        var found: [Data] = []
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
                throw MissingFuzzSeeds(folder: folder.standardizedFileURL.path, suffix: suffix, folderExists: false)
            }
            let seeds = names.sorted().filter { $0.hasSuffix("." + suffix) }
            guard !seeds.isEmpty else {
                throw MissingFuzzSeeds(folder: folder.standardizedFileURL.path, suffix: suffix, folderExists: true)
            }
            for name in seeds {
                found.append(try Data(contentsOf: folder.appending(path: name)))
            }
        }
        return found
    }
}
