import CommandLineOptions
import Foundation
import StoreCore

// PolicyService: StoreRules embedded in a server, speaking JSON lines over stdin and stdout.
// See docs/embedding.md.

/// Writes `text` and a newline to standard error.
func report(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The options of the command line, or the exit status when there is nothing to serve: 0
/// after printing the usage for `--help`, 64 for a mistake, 1 for a root file that cannot be
/// read.
func readOptions() -> Result<ServiceOptions, ExitStatus> {
    do {
        let parsed = try ServiceOptions.syntax.parse(Array(CommandLine.arguments.dropFirst()))
        if parsed.helpRequested {
            FileHandle.standardOutput.write(Data((ServiceOptions.usage + "\n").utf8))
            return .failure(ExitStatus(0))
        }
        return .success(try ServiceOptions(parsed))
    } catch let error as UsageError {
        report("PolicyService: \(error.message)\nRun 'PolicyService --help' for usage.")
        return .failure(ExitStatus(64))
    } catch let error as InputFileError {
        report("PolicyService: the root \(error.path) cannot be read: \(error.explanation)")
        return .failure(ExitStatus(1))
    } catch {
        report("PolicyService: \(error)")
        return .failure(ExitStatus(1))
    }
}

/// An exit status, as a value `readOptions` can fail with.
struct ExitStatus: Error {
    /// The status.
    let code: Int32
    init(_ code: Int32) { self.code = code }
}

/// Serves until standard input closes. The service lives only inside this call, so when it
/// returns the ledger is released and its database closed: nothing of the write-ahead log is
/// left beside the ledger file.
func serve(_ options: ServiceOptions) -> Int32 {
    let service: Service
    do {
        service = try Service(options: options)
    } catch {
        report("PolicyService: \(error.message)")
        return 1
    }
    report("PolicyService: serving \(options.folder) (policy \(service.engine.version)) with \(options.workers) "
           + "worker\(options.workers == 1 ? "" : "s"); one JSON request per line")
    LineServer(service: service, workers: options.workers).run()
    return 0
}

switch readOptions() {
case .success(let options): exit(serve(options))
case .failure(let status): exit(status.code)
}
