import CommandLineOptions
import Foundation
import StoreCore
import StoreService

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

/// Serves until standard input closes; returns the exit status and a weak hold on the
/// service, to wait for its release.
func serve(_ options: ServiceOptions) -> (status: Int32, release: ServiceRelease) {
    let service: Service
    do {
        service = try Service(configuration: try options.configuration())
    } catch {
        report("PolicyService: \(error.message)")
        return (1, ServiceRelease(service: nil))
    }
    report("PolicyService: serving \(options.folder) (policy \(service.engine.version)) with \(options.workers) "
           + "worker\(options.workers == 1 ? "" : "s"); one JSON request per line")
    LineServer(service: service, workers: options.workers).run()
    return (0, ServiceRelease(service: service))
}

/// A weak hold on the service: once nothing else holds it, its ledger is released and the
/// database closed, so nothing of the write-ahead log is left beside the ledger file.
struct ServiceRelease {
    /// The service, until the last worker thread lets go of it.
    weak var service: Service?

    /// Waits, at most two seconds, for the worker threads to let go of the service: they do
    /// just after their last reply.
    func wait() {
        let deadline = Date().addingTimeInterval(2)
        while service != nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

switch readOptions() {
case .success(let options):
    let (status, release) = serve(options)
    release.wait()
    exit(status)
case .failure(let status):
    exit(status.code)
}
