// swift-tools-version:6.0
import PackageDescription

// StoreRules' fuzz executable, built with libFuzzer by scripts/fuzz.sh:
//   swift build --package-path Fuzz -c release -Xswiftc -Onone -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
// The targets' bodies live in the StoreFuzzing library of the package above, so the
// regression tests run the same code without the fuzzer.
let package = Package(
    name: "StoreRulesFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "StoreRules", path: "..")],
    targets: [
        .executableTarget(
            name: "storerules-fuzz",
            dependencies: [.product(name: "StoreFuzzing", package: "StoreRules")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
