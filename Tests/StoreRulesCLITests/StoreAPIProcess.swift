import Foundation
import Testing
import TestPrerequisites

/// A local store made through `storerules store` over the Backyard Birds example in the
/// Sandbox environment, its `api` running on a free loopback port, and a key it accepts.
final class StoreAPIProcess: @unchecked Sendable {
    static let bundleID = "com.example.backyardbirds"

    let directory: URL
    let ledgerPath: String
    /// `http://127.0.0.1:PORT`.
    private(set) var baseURL = ""
    /// The `api-key --json` answer: `issuer_id`, `key_id`, `private_key_path`, `bundle_id`.
    private(set) var key: [String: String] = [:]
    /// The store's root certificate's PEM file.
    let rootPath: String
    private var process: Process?

    init() throws {
        directory = try TestFolders.make("store-api")
        ledgerPath = directory.appending(path: "ledger.sqlite").path
        rootPath = directory.appending(path: "root.pem").path
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `storerules store Examples/BackyardBirds --ledger … <arguments>`; fails on a non-zero exit.
    @discardableResult
    func store(_ arguments: [String]) throws -> String {
        let result = try CommandRunner.run(
            ["store", "Examples/BackyardBirds", "--ledger", ledgerPath, "--environment", "Sandbox", "--bundle-id", Self.bundleID] + arguments)
        guard result.status == 0 else { throw Failure("store \(arguments.joined(separator: " ")): \(result.standardError)") }
        return result.standardOutput
    }

    /// `store … <arguments> --json` as a JSON object.
    func storeJSON(_ arguments: [String]) throws -> [String: Any] {
        let text = try store(arguments + ["--json"])
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure("store \(arguments.joined(separator: " ")) printed no JSON object: \(text)")
        }
        return object
    }

    /// Buys `product` for `customer`, returning the transaction id.
    func buy(_ product: String, customer: String = "ana") throws -> String {
        let answer = try storeJSON(["purchase", product, "--customer", customer])
        guard let transaction = answer["transaction"] as? [String: Any], let id = transaction["transactionId"] as? String else {
            throw Failure("the purchase of \(product) answered no transaction: \(answer)")
        }
        return id
    }

    /// Makes a key, writes the root, and starts `store … api --listen 127.0.0.1:0`.
    func start() throws {
        key = try storeJSON(["api-key"]).compactMapValues { $0 as? String }
        try store(["certificate"]).write(toFile: rootPath, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.currentDirectoryURL = CommandRunner.packageRoot
        process.arguments = ["store", "Examples/BackyardBirds", "--ledger", ledgerPath, "--environment", "Sandbox",
                             "--bundle-id", Self.bundleID, "api", "--listen", "127.0.0.1:0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure("store api ended before listening") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression) else {
            throw Failure("store api printed no address: \(text)")
        }
        baseURL = String(text[range])
    }

    /// Stops the API.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
