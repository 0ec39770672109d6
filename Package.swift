// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "StoreRules",
    products: [
        .library(name: "LuaBridge", targets: ["LuaBridge"]),
        .library(name: "StoreCore", targets: ["StoreCore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "LuaBridge",
            dependencies: ["CLua"]
        ),
        .target(
            name: "StoreCore",
            dependencies: ["COpenSSL", "CSQLite"]
        ),
        .testTarget(name: "LuaBridgeTests", dependencies: ["LuaBridge"]),
        .testTarget(name: "StoreCoreTests", dependencies: ["StoreCore"]),
    ],
    swiftLanguageModes: [.v6]
)
