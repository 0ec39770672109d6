import Foundation
import StoreFuzzing

// The fuzz executable: libFuzzer's driver over one StoreRules fuzz target.
//
//   STORERULES_FUZZ_TARGET=<target> storerules-fuzz [libFuzzer options] [CORPUS...]
//
// STORERULES_FUZZ_TARGET names the target (a FuzzTarget raw value); STORERULES_FUZZ_SEEDS,
// when set, is a folder that receives the target's seed inputs before fuzzing starts;
// STORERULES_PACKAGE_ROOT is the StoreRules package folder (default: the current folder).

/// libFuzzer's driver, which this program calls instead of linking libFuzzer's own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The harness of the target this process fuzzes.
nonisolated(unsafe) var harness: FuzzHarness?

/// One input for the harness; libFuzzer's driver refers to it by this name.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    harness?.run(data.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}

let environment = ProcessInfo.processInfo.environment
guard let name = environment["STORERULES_FUZZ_TARGET"], let target = FuzzTarget(rawValue: name) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("storerules-fuzz: set STORERULES_FUZZ_TARGET to one of: \(names)\n".utf8))
    exit(64)
}
let packageRoot = URL(fileURLWithPath: environment["STORERULES_PACKAGE_ROOT"] ?? FileManager.default.currentDirectoryPath)
do {
    let made = try FuzzHarness(target, packageRoot: packageRoot)
    if let folder = environment["STORERULES_FUZZ_SEEDS"] {
        for (position, seed) in try made.seedInputs().enumerated() {
            try seed.write(to: URL(fileURLWithPath: folder).appending(path: "seed-\(position)"))
        }
    }
    harness = made
} catch {
    FileHandle.standardError.write(Data("storerules-fuzz: cannot prepare \(name): \(error)\n".utf8))
    exit(1)
}

var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argumentCount, &argumentValues, testOneInput))
