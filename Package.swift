// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "StoreRules",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LuaBridge", targets: ["LuaBridge"]),
        .library(name: "SignedData", targets: ["SignedData"]),
        .library(name: "StoreCore", targets: ["StoreCore"]),
        .library(name: "StorePolicy", targets: ["StorePolicy"]),
        .library(name: "StoreService", targets: ["StoreService"]),
        .library(name: "StoreHTTP", targets: ["StoreHTTP"]),
        .library(name: "StoreTesting", targets: ["StoreTesting"]),
        .library(name: "StoreJourneys", targets: ["StoreJourneys"]),
        .library(name: "StoreFuzzing", targets: ["StoreFuzzing"]),
        .library(name: "SQLiteLedger", targets: ["SQLiteLedger"]),
        .library(name: "PostgresLedger", targets: ["PostgresLedger"]),
        .library(name: "AppStoreServerAPI", targets: ["AppStoreServerAPI"]),
        .library(name: "StoreStatistics", targets: ["StoreStatistics"]),
        .executable(name: "storerules", targets: ["storerules"]),
    ],
    targets: [
        // Debian's C libraries.
        .systemLibrary(name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // The libraries: Lua through its C API; signed data and its verification through OpenSSL;
        // the purchase pipeline; the policy engine joining them.
        .target(name: "LuaBridge", dependencies: ["CLua"]),
        .target(name: "SignedData", dependencies: ["COpenSSL"]),
        .target(name: "StoreCore", dependencies: ["SignedData"]),
        .target(name: "StorePolicy", dependencies: ["LuaBridge", "CPolicyContext", "StoreCore", "TextMatching"]),
        .target(name: "StoreService", dependencies: ["StorePolicy", "StoreCore", "SQLiteLedger", "LuaBridge", "AppStoreServerAPI", "StoreStatistics"],
                resources: [.embedInCode("Contract/openapi.json")]),
        // The HTTP transport over the service core: its own strict HTTP/1.1 reading, TLS through OpenSSL.
        .target(name: "StoreHTTP", dependencies: ["StoreService", "COpenSSL", "AppStoreServerAPI"]),

        // The client of Apple's App Store Server API: JWT auth, every endpoint, typed errors,
        // retries and paging, every signed item verified; its wire types, which the local store serves.
        .target(name: "AppStoreServerAPI", dependencies: ["StoreCore"]),

        // Tools that play the App Store's part, which no production service links: the local test
        // store and its signing authority; journeys and the REPL, which play a policy against it.
        .target(name: "StoreTesting", dependencies: ["StoreCore", "SQLiteLedger", "AppStoreServerAPI"]),
        .target(name: "StoreJourneys", dependencies: ["StorePolicy", "StoreTesting", "StoreCore", "SQLiteLedger", "LuaBridge"]),

        // The ledger in one SQLite file, through a small wrapper of SQLite's C API, for one process.
        .target(name: "SQLiteLedger", dependencies: ["StoreCore", "CSQLite"]),
        // The ledger on a PostgreSQL server, through libpq, for a fleet of processes sharing one.
        .target(name: "PostgresLedger", dependencies: ["StoreCore", "CLibPQ"]),

        // The command line, its option parser (shared with the service example), and the
        // benchmark's floor: the same policy call written in C.
        .target(name: "CommandLineOptions", dependencies: ["TextMatching"]),
        // The statistics of experiments, as GrowthBook's gbstats computes them: Welch's t, asymptotic
        // confidence sequences and the sample-ratio-mismatch check, with the special functions they need.
        .target(name: "StoreStatistics"),
        // How "did you mean" hints are chosen, for the policy, the service and the command line alike.
        .target(name: "TextMatching"),
        // The options both service executables take, declared once.
        .target(name: "ServiceCommandLine", dependencies: ["CommandLineOptions", "StoreService", "StoreCore", "SQLiteLedger", "PostgresLedger",
                                                         "AppStoreServerAPI", "TextMatching"]),
        .target(name: "CLuaBaseline", dependencies: ["CLua"]),
        // ctx and ctx.customer, made in C from a plain-data snapshot as hooks read them.
        .target(name: "CPolicyContext", dependencies: ["CLua"]),
        .executableTarget(
            name: "storerules",
            dependencies: ["StorePolicy", "StoreService", "StoreHTTP", "StoreJourneys", "StoreTesting", "StoreBench", "StoreCore",
                           "SQLiteLedger", "PostgresLedger", "ServiceCommandLine", "AppStoreServerAPI",
                           "LuaBridge",
                           "CEditLine",
                           "CommandLineOptions"]
        ),

        // The fuzz targets' bodies, shared by the fuzz executables (Fuzz/) and the regression tests.
        .target(name: "StoreFuzzing", dependencies: ["StoreService", "StoreHTTP", "StoreJourneys", "StoreTesting", "StorePolicy",
                                                   "StoreCore", "SQLiteLedger", "LuaBridge", "AppStoreServerAPI"]),

        // Every measurement storerules bench prints: decisions against the C baseline, signed data
        // against OpenSSL, the ledger, and load on the services from a second process (wrk).
        .target(name: "StoreBench", dependencies: ["StoreTesting", "StorePolicy", "StoreCore", "SQLiteLedger", "PostgresLedger", "ServiceCommandLine", "LuaBridge",
                                                 "CLuaBaseline", "COpenSSL", "AppStoreServerAPI", "StoreHTTP", "StoreStatistics"]),

        // A service embedding the library, as an example.
        .executableTarget(name: "PolicyService", dependencies: ["StoreService", "StorePolicy", "StoreCore", "PostgresLedger",
                                                                   "CommandLineOptions", "ServiceCommandLine"],
                         path: "Examples/PolicyService"),

        // Apple's Python library as a second verifier, for the tests that cross-check signed data.
        .target(name: "AppleLibraryCrossCheck", path: "Tests/AppleLibraryCrossCheck"),
        .target(name: "TestPrerequisites", path: "Tests/TestPrerequisites"),

        .testTarget(name: "LuaBridgeTests", dependencies: ["LuaBridge"]),
        .testTarget(name: "SignedDataTests", dependencies: ["SignedData", "StoreTesting", "AppleLibraryCrossCheck", "TestPrerequisites"],
                    exclude: ["XcodeVectors"]),
        .testTarget(name: "StoreCoreTests", dependencies: ["StoreCore", "SQLiteLedger", "StoreTesting", "TestPrerequisites"]),
        .testTarget(name: "SQLiteLedgerTests", dependencies: ["SQLiteLedger", "StoreCore", "TestPrerequisites"]),
        .testTarget(name: "AppStoreServerAPITests", dependencies: ["AppStoreServerAPI", "StoreCore", "SQLiteLedger", "StoreTesting", "StoreHTTP",
                                                                 "StoreService", "TestPrerequisites"]),
        .testTarget(name: "StoreTestingTests", dependencies: ["StoreTesting", "StoreCore", "SQLiteLedger", "TestPrerequisites"]),
        .testTarget(name: "StorePolicyTests", dependencies: ["StorePolicy", "StoreTesting", "SQLiteLedger", "TestPrerequisites"]),
        .testTarget(name: "StoreJourneysTests", dependencies: ["StoreJourneys", "StorePolicy", "StoreTesting", "TestPrerequisites"]),
        .testTarget(name: "StoreServiceTests", dependencies: ["StoreService", "StorePolicy", "StoreTesting", "SQLiteLedger", "TestPrerequisites"]),
        .testTarget(name: "StoreHTTPTests", dependencies: ["StoreHTTP", "StoreService", "StoreTesting", "SQLiteLedger", "PostgresLedger",
                                                         "ServiceCommandLine", "TestPrerequisites"]),
        .testTarget(name: "StoreFuzzingTests", dependencies: ["StoreFuzzing"]),
        .testTarget(name: "PostgresLedgerTests", dependencies: ["PostgresLedger", "SQLiteLedger", "ServiceCommandLine", "CommandLineOptions", "TestPrerequisites", "StoreService"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "TextMatchingTests", dependencies: ["TextMatching"]),
        .testTarget(name: "StoreStatisticsTests", dependencies: ["StoreStatistics", "TestPrerequisites"]),
        .testTarget(name: "StoreRulesCLITests", dependencies: ["storerules", "PolicyService", "AppleLibraryCrossCheck", "SQLiteLedger", "PostgresLedger",
                                                             "ServiceCommandLine", "TestPrerequisites", "AppStoreServerAPI", "StoreCore",
                                                             "StoreTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
