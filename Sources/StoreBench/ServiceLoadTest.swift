import Dispatch
import Foundation
import StoreCore
import StorePolicy
import StoreTesting

/// The service section of `storerules bench`: the `PolicyService` example under a pipelined
/// stream of mixed requests from many customers, with a policy reload in the middle.
///
/// The stream is made before the clock starts: signed consumable purchases (some delivered
/// twice), subscription purchases and renewals, storefront plans and entitlements, spread over
/// the customers in turn. At most ``window`` requests are in flight; each latency runs from
/// the moment a request is written to the moment its reply (matched by id) is read. After
/// the stream, the load test checks that every transaction was granted exactly once and that
/// the ledger's balances are the sums of the grants the replies reported.
public struct ServiceLoadTest {
    /// How many customers the stream speaks for.
    public static let customers = 200
    /// How many requests may wait for their replies at once.
    public static let window = 64
    /// The service's workers.
    public static let workers = 2
    static let bundleId = "com.example.storerules.bench"

    /// What the load test measured.
    public struct Figures: Sendable {
        /// Requests sent, the reload not counted.
        public var requests: Int
        /// Replies per second.
        public var requestsPerSecond: Double
        /// The median latency, in milliseconds.
        public var p50Milliseconds: Double
        /// The 99th-percentile latency, in milliseconds.
        public var p99Milliseconds: Double
        /// Requests whose reply was an error, or that were granted other than once.
        public var failedRequests: Int
        /// The first failed reply, when a request failed.
        public var firstFailure: String?
    }

    /// Prepares a load test of the `PolicyService` binary at `executable` serving a copy of
    /// `folder` with a stream of `requestCount` requests.
    public init(executable: URL, folder: URL, requestCount: Int) {
        self.executable = executable
        self.folder = folder
        self.requestCount = requestCount
    }

    /// The `PolicyService` binary.
    let executable: URL
    /// The policy folder the service serves (copied, so the reload can edit its policy).
    let folder: URL
    /// How many requests the stream holds, the reload not counted.
    let requestCount: Int

    /// `PolicyService` beside the running `storerules`, when it was built.
    public static func executableBesideThisOne() -> URL? {
        let this = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
        let service = this.deletingLastPathComponent().appendingPathComponent("PolicyService")
        return FileManager.default.isExecutableFile(atPath: service.path) ? service : nil
    }

    /// The Backyard Birds example of the package `storerules` was built from.
    public static let exampleFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/BackyardBirds")

    // MARK: - The stream

    /// One request of the stream, with its id.
    enum Planned: Sendable {
        /// A request line; for an ingest, the customer and transaction it delivers.
        case line(String, id: Int, delivery: Delivery?)
        /// Edit `policy.lua`, then ask the service to reload it.
        case reload(id: Int)

        var id: Int {
            switch self {
            case .line(_, let id, _), .reload(let id): id
            }
        }
    }

    /// The customer and transaction an ingest request delivers.
    struct Delivery: Sendable {
        var customer: String
        var transactionID: String
    }

    private enum Kind {
        case consumable, storefront, entitlements, subscription, redelivery
    }

    /// Ten requests per customer in turn: four ingests (two new consumables, one delivered
    /// again, one subscription period), three storefront plans and three entitlements.
    private static let cycle: [Kind] = [
        .consumable, .storefront, .entitlements, .subscription, .storefront,
        .redelivery, .entitlements, .consumable, .storefront, .entitlements,
    ]

    private struct Line: Encodable {
        var id: Int
        var op: String
        var customer: String?
        var placement: String?
        var jws: String?
    }

    /// The stream of requests, signed by `authority`: ids 0 to `requestCount - 1` in order, and
    /// the reload, id `requestCount`, halfway.
    func plan(catalog: Catalog, authority: SigningAuthority, now: Date) throws -> [Planned] {
        let consumables = catalog.products.filter { $0.type == .consumable }.map(\.id).sorted()
        let plans = catalog.subscriptionGroups.first.map { catalog.subscriptions(inGroup: $0.id).map(\.id) } ?? []
        let kinds = (0..<requestCount).map { index -> Kind in
            let kind = Self.cycle[(index / Self.customers) % Self.cycle.count]
            if kind == .subscription, plans.isEmpty { return .storefront }
            if kind == .consumable || kind == .redelivery, consumables.isEmpty { return .entitlements }
            return kind
        }
        var periods = [Int](repeating: 0, count: Self.customers)
        for (index, kind) in kinds.enumerated() where kind == .subscription { periods[index % Self.customers] += 1 }

        let encoder = JSONEncoder()
        func line(_ request: Line) throws -> String { String(decoding: try encoder.encode(request), as: UTF8.self) }
        var renewed = [Int](repeating: 0, count: Self.customers)
        var lastDelivery: [Int: (line: Line, transactionID: String)] = [:]
        var stream: [Planned] = []
        for (index, kind) in kinds.enumerated() {
            let number = index % Self.customers
            let customer = "customer-\(number)"
            if kind == .redelivery, var again = lastDelivery[number] {
                again.line.id = index
                stream.append(.line(try line(again.line), id: index, delivery: Delivery(customer: customer, transactionID: again.transactionID)))
                continue
            }
            switch kind {
            case .storefront:
                stream.append(.line(try line(Line(id: index, op: "storefront", customer: customer,
                                                  placement: index % 2 == 0 ? "home" : "store")), id: index, delivery: nil))
            case .entitlements:
                stream.append(.line(try line(Line(id: index, op: "entitlements", customer: customer)), id: index, delivery: nil))
            case .consumable, .redelivery:
                let transactionID = String(2_000_000_000 + index)
                let payload = JWSTransactionDecodedPayload(
                    originalTransactionId: transactionID, transactionId: transactionID, bundleId: Self.bundleId,
                    productId: consumables[(number + index / Self.customers) % consumables.count], purchaseDate: now,
                    originalPurchaseDate: now, quantity: Int32(1 + index % 3), type: .consumable, inAppOwnershipType: .purchased,
                    signedDate: now, environment: .sandbox, storefront: "USA", transactionReason: .purchase, currency: "USD", price: 990)
                let request = Line(id: index, op: "ingest_transaction", customer: customer, jws: try authority.sign(payload))
                lastDelivery[number] = (request, transactionID)
                stream.append(.line(try line(request), id: index, delivery: Delivery(customer: customer, transactionID: transactionID)))
            case .subscription:
                let original = String(3_000_000_000 + number)
                let period = renewed[number]
                renewed[number] += 1
                let transactionID = period == 0 ? original : String(4_000_000_000 + index)
                let start = now.addingTimeInterval(-Double(periods[number] - 1 - period) * 30 * 86_400 - 86_400)
                let payload = JWSTransactionDecodedPayload(
                    originalTransactionId: original, transactionId: transactionID, bundleId: Self.bundleId,
                    productId: plans[number % plans.count], subscriptionGroupIdentifier: catalog.subscriptionGroups.first?.id,
                    purchaseDate: start, originalPurchaseDate: now.addingTimeInterval(-Double(periods[number]) * 30 * 86_400),
                    expiresDate: start.addingTimeInterval(30 * 86_400), quantity: 1, type: .autoRenewableSubscription,
                    inAppOwnershipType: .purchased, signedDate: start, environment: .sandbox, storefront: "USA",
                    transactionReason: period == 0 ? .purchase : .renewal, currency: "USD", price: 4990)
                let request = Line(id: index, op: "ingest_transaction", customer: customer, jws: try authority.sign(payload))
                stream.append(.line(try line(request), id: index, delivery: Delivery(customer: customer, transactionID: transactionID)))
            }
        }
        stream.insert(.reload(id: requestCount), at: stream.count / 2)
        return stream
    }

    // MARK: - Running

    /// Starts the service, sends the stream with the reload halfway, checks the ledger, and
    /// returns the figures.
    public func run() throws -> Figures {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let policyFolder = directory.appendingPathComponent("policy")
        do {
            try FileManager.default.createDirectory(at: policyFolder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
            where name == "policy.lua" || name.hasSuffix(".storekit") {
                try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: policyFolder.appendingPathComponent(name))
            }
        } catch {
            throw BenchFailure("service load test: cannot copy \(folder.path): \(error.localizedDescription)")
        }
        let catalog: Catalog
        do {
            guard let loaded = try PolicyFolder(policyFolder).loadCatalog() else {
                throw BenchFailure("service load test: \(folder.path) has no .storekit catalog")
            }
            catalog = loaded
        } catch let error as PolicyError {
            throw BenchFailure("service load test: \(error.description)")
        } catch let error as CatalogError {
            throw BenchFailure("service load test: \(error)")
        }
        let signing = directory.appendingPathComponent("signing")
        let authority = try SigningAuthority.loadOrCreate(in: signing)
        let stream = try plan(catalog: catalog, authority: authority, now: Date())
        let ledgerPath = directory.appendingPathComponent("ledger.sqlite").path

        let process = Process()
        process.executableURL = executable
        process.arguments = [
            policyFolder.path, "--ledger", ledgerPath,
            "--root", signing.appendingPathComponent(SigningAuthority.StoredFile.rootCertificate.rawValue).path,
            "--bundle-id", Self.bundleId, "--environment", "Sandbox", "--workers", "\(Self.workers)",
        ]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        // A service that dies makes writing to it fail with EPIPE instead of ending storerules.
        signal(SIGPIPE, SIG_IGN)
        do {
            try process.run()
        } catch {
            throw BenchFailure("service load test: cannot start \(executable.path): \(error.localizedDescription)")
        }
        let replies = ReplyReader(output.fileHandleForReading)
        do {
            try warmUp(input: input.fileHandleForWriting, replies: replies)
        } catch let failure as BenchFailure {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw BenchFailure(failure.description + (said.isEmpty ? "" : " (\(said))"))
        }

        let run = LoadRun(stream)
        let sender = DispatchGroup()
        sender.enter()
        let policyFile = policyFolder.appendingPathComponent("policy.lua")
        Thread { [input = input.fileHandleForWriting] in
            defer { sender.leave() }
            run.send(to: input, policyFile: policyFile)
        }.start()
        let started = DispatchTime.now().uptimeNanoseconds
        while run.received < stream.count, let reply = replies.next() {
            run.receive(reply)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        sender.wait()
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        if let problem = run.problem { throw BenchFailure("service load test: \(problem)") }
        guard process.terminationStatus == 0 else {
            throw BenchFailure("service load test: PolicyService exited with status \(process.terminationStatus)")
        }
        try run.checkGrants(ledgerPath: ledgerPath)

        let latencies = run.latencies.sorted()
        func percentile(_ share: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * share))]
        }
        return Figures(
            requests: stream.count, requestsPerSecond: Double(run.received) / elapsed,
            p50Milliseconds: percentile(0.50), p99Milliseconds: percentile(0.99),
            failedRequests: run.failed + (stream.count - run.received), firstFailure: run.firstFailure)
    }

    /// Gives every worker thread its Lua state before the clock starts.
    private func warmUp(input: FileHandle, replies: ReplyReader) throws {
        let count = 4 * Self.workers
        for index in 0..<count {
            let line = #"{"id": "warm-up-\#(index)", "op": "storefront", "customer": "warm-up"}"# + "\n"
            do {
                try input.write(contentsOf: Data(line.utf8))
            } catch {
                throw BenchFailure("service load test: PolicyService did not start: \(error.localizedDescription)")
            }
        }
        for _ in 0..<count {
            guard let reply = replies.next() else { throw BenchFailure("service load test: PolicyService stopped while warming up") }
            guard ServiceReplyLine(reply)?.hasResult == true else {
                throw BenchFailure("service load test: warming up failed: \(reply)")
            }
        }
    }
}
