import Foundation
import StoreService

// PolicyService: StoreRules embedded in a server, speaking JSON lines over stdin and stdout.
// See docs/embedding.md.

let options: ServiceOptions
do {
    options = try ServiceOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
    if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
        FileHandle.standardOutput.write(Data((ServiceOptions.usage + "\n").utf8))
        exit(0)
    }
    FileHandle.standardError.write(Data("PolicyService: \(error.message)\n\(ServiceOptions.usage)\n".utf8))
    exit(64)
}

let service: Service
do {
    service = try Service(configuration: options.configuration)
} catch {
    FileHandle.standardError.write(Data("PolicyService: \(error.message)\n".utf8))
    exit(1)
}

FileHandle.standardError.write(Data("""
    PolicyService: serving \(options.folder) (policy \(service.engine.version)) with \(options.workers) worker\(options.workers == 1 ? "" : "s"); \
    one JSON request per line

    """.utf8))
LineServer(service: service, workers: options.workers).run()
