import Foundation
import PostgresLedger
import ServiceCommandLine
import StoreCore
import StoreTesting

/// Load on `storerules serve` from a second process, `wrk`, at 64 connections: storefront GETs,
/// Retention Messaging requests and notification POSTs per second with their p50 and p99, on a
/// SQLite ledger, on a PostgreSQL one, and on PostgreSQL with two instances sharing it.
public struct HTTPBench {
    /// Connections wrk keeps open, in all.
    public static let connections = 64
    /// Customers the storefront requests go to, in turn.
    public static let customers = 200
    /// Signed notifications prepared per second of a notification run.
    public static let notificationsPerSecond = 5_000

    let executable: URL
    let folder: URL
    let seconds: Int
    private let workspace: URL
    private let authority: SigningAuthority
    private let appKey = "bench-app-key-" + UUID().uuidString

    /// A benchmark of the `storerules` binary at `executable` serving `folder` (Backyard Birds),
    /// each run lasting `seconds`.
    public init(executable: URL, folder: URL, seconds: Int) throws {
        self.executable = executable
        self.folder = folder
        self.seconds = seconds
        workspace = FileManager.default.temporaryDirectory.appendingPathComponent("storerules-http-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        authority = try SigningAuthority.generate(name: "StoreRules HTTP Bench")
        try authority.rootCertificate.pemRepresentation.write(to: file("root.pem"), atomically: true, encoding: .utf8)
        try "app \(appKey)\n".write(to: file("keys"), atomically: true, encoding: .utf8)
        try Self.storefrontScript.write(to: file("storefront.lua"), atomically: true, encoding: .utf8)
        try Self.notificationScript.write(to: file("notifications.lua"), atomically: true, encoding: .utf8)
        try Self.retentionScript.write(to: file("retention.lua"), atomically: true, encoding: .utf8)
    }

    /// Removes the workspace.
    public func cleanUp() {
        try? FileManager.default.removeItem(at: workspace)
    }

    /// Measures on a new SQLite ledger, and on a new database of the PostgreSQL server at
    /// `postgresURL` when given, with one instance and then two.
    public func run(postgresURL: String?) throws -> [HTTPBenchFigures] {
        let sqlite = file("ledger.sqlite").path
        var figures = [try measure(ledger: sqlite, customers: try seed(.sqlite(path: sqlite)), label: "sqlite", instances: 1, run: 0)]
        if let postgresURL {
            let database = try BenchPostgresDatabase(serverURL: postgresURL)
            defer { try? database.drop() }
            let customers = try seed(.postgres(url: database.url))
            figures.append(try measure(ledger: database.url, customers: customers, label: "postgres", instances: 1, run: 1))
            figures.append(try measure(ledger: database.url, customers: customers, label: "postgres", instances: 2, run: 2))
        }
        return figures
    }

    private func file(_ name: String) -> URL {
        workspace.appendingPathComponent(name)
    }

    /// One ledger's runs over its seeded `customers`: `instances` servers started, storefront
    /// GETs, Retention Messaging requests, then new notifications.
    private func measure(ledger location: String, customers: SeededCustomers, label: String, instances count: Int,
                         run: Int) throws -> HTTPBenchFigures {
        let bodies = file("notifications-\(run).jsonl")
        let notificationCount = Self.notificationsPerSecond * seconds * count
        try signedNotifications(count: notificationCount, run: run, tokens: customers.tokens)
            .write(to: bodies, atomically: true, encoding: .utf8)
        let retentionBodies = file("retention-\(run).jsonl")
        try signedRetentionRequests(passes: customers.passes).write(to: retentionBodies, atomically: true, encoding: .utf8)
        let instances = try (0..<count).map { _ in
            try ServeInstance(executable: executable, arguments: [
                folder.path, "--ledger", location, "--root", file("root.pem").path, "--bundle-id", Self.bundleID,
                "--environment", "Sandbox", "--api-keys", file("keys").path, "--threads", "4",
                // wrk's connections, many clients in one, all come from one address.
                "--max-connections-per-address", "off",
            ])
        }
        // The servers must outlive every wrk run, which an optimized build would not see from
        // their last use.
        return try withExtendedLifetime(instances) {
            let perInstance = Self.connections / count
            let storefront = try combine(instances.enumerated().map { index, instance in
                try WrkRun.start(url: instance.url + "/v1/customers/bench-0/storefront?placement=home", connections: perInstance,
                                 threads: 1, seconds: seconds, headers: ["Authorization: Bearer \(appKey)"],
                                 script: file("storefront.lua").path, scriptArguments: [String(Self.customers), String(index)])
            })
            let retention = try combine(instances.enumerated().map { index, instance in
                try WrkRun.start(url: instance.url + "/v1/apple/retention", connections: perInstance, threads: 1, seconds: seconds,
                                 script: file("retention.lua").path, scriptArguments: [retentionBodies.path, String(index)])
            })
            let notifications = try combine(instances.enumerated().map { index, instance in
                try WrkRun.start(url: instance.url + "/v1/notifications", connections: perInstance, threads: 1, seconds: seconds,
                                 script: file("notifications.lua").path,
                                 scriptArguments: [bodies.path, String(index), String(count)])
            })
            return HTTPBenchFigures(ledger: label, instances: count, storefront: storefront, retention: retention,
                                    notifications: notifications, notificationsRepeated: notifications.requests > notificationCount)
        }
    }

    /// Runs started together, finished, and added up: rates and counts summed, the worst
    /// latencies kept.
    private func combine(_ runs: [WrkRun.Running]) throws -> WrkRun {
        let finished = try runs.map { try $0.finish() }
        var total = finished[0]
        for run in finished.dropFirst() {
            total.requestsPerSecond += run.requestsPerSecond
            total.requests += run.requests
            total.non2xxResponses += run.non2xxResponses
            total.socketErrors += run.socketErrors
            total.p50Milliseconds = max(total.p50Milliseconds, run.p50Milliseconds)
            total.p99Milliseconds = max(total.p99Milliseconds, run.p99Milliseconds)
        }
        return total
    }

    static let bundleID = "com.example.backyardbirds"

    /// The seeded customers: every customer's app account token, and the original transaction
    /// ids of the passes.
    struct SeededCustomers {
        var tokens: [String] = []
        var passes: [(originalTransactionID: String, productID: String)] = []
    }

    /// Registers the customers, each with an app account token, and gives every fourth a pass.
    private func seed(_ location: LedgerLocation) throws -> SeededCustomers {
        let ledger = try location.open()
        var seeded = SeededCustomers()
        let now = Date(millisecondsSince1970: Date().millisecondsSince1970 - 3_600_000)
        for index in 0..<Self.customers {
            let token = UUID().uuidString.lowercased()
            try ledger.registerCustomer(id: "bench-\(index)", appAccountToken: token)
            seeded.tokens.append(token)
            guard index.isMultiple(of: 4) else { continue }
            let passID = "pass-\(index)-\(UUID().uuidString)"
            seeded.passes.append((passID, "pass.individual"))
            let pass = JWSTransactionDecodedPayload(
                originalTransactionId: passID, transactionId: passID,
                bundleId: Self.bundleID, productId: "pass.individual", subscriptionGroupIdentifier: "6F3A93AB",
                purchaseDate: now, originalPurchaseDate: now, expiresDate: now.addingTimeInterval(30 * 86_400), quantity: 1,
                type: .autoRenewableSubscription, appAccountToken: token, inAppOwnershipType: .purchased, signedDate: now,
                environment: .sandbox, storefront: "USA", transactionReason: .purchase, currency: "USD", price: 2990)
            try ledger.ingest(transaction: pass, jwsRepresentation: try authority.sign(pass), customerID: "bench-\(index)") { _ in [] }
        }
        return seeded
    }

    /// One signed Retention Messaging request per pass and locale, one body per line: a
    /// subscriber of a known pass opening the cancel screen. The responder only reads, so wrk
    /// sends them in turn again and again.
    private func signedRetentionRequests(passes: [(originalTransactionID: String, productID: String)]) throws -> String {
        let now = Date(millisecondsSince1970: Date().millisecondsSince1970 - 60_000)
        var lines: [String] = []
        for pass in passes {
            for locale in ["en_US", "fr_FR"] {
                let request = DecodedRealtimeRequestBody(
                    originalTransactionId: pass.originalTransactionID, productId: pass.productID, userLocale: locale,
                    requestIdentifier: UUID().uuidString.lowercased(), signedDate: now, environment: .sandbox)
                lines.append(#"{"signedPayload":"\#(try authority.sign(request))"}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `count` notification bodies, one per line, each a new box of pellets for a customer in turn.
    private func signedNotifications(count: Int, run: Int, tokens: [String]) throws -> String {
        let now = Date(millisecondsSince1970: Date().millisecondsSince1970 - 60_000)
        var lines: [String] = []
        lines.reserveCapacity(count)
        for index in 0..<count {
            let id = "http-\(run)-\(index)"
            let purchase = JWSTransactionDecodedPayload(
                originalTransactionId: id, transactionId: id, bundleId: Self.bundleID, productId: "pellet.box", purchaseDate: now,
                originalPurchaseDate: now, quantity: 1, type: .consumable, appAccountToken: tokens[index % tokens.count],
                inAppOwnershipType: .purchased, signedDate: now, environment: .sandbox, storefront: "USA",
                transactionReason: .purchase, currency: "USD", price: 2990)
            let notification = ResponseBodyV2DecodedPayload(
                notificationType: .oneTimeCharge, notificationUUID: UUID().uuidString.lowercased(),
                data: NotificationData(environment: .sandbox, bundleId: Self.bundleID, signedTransactionInfo: try authority.sign(purchase)),
                version: "2.0", signedDate: now)
            lines.append(#"{"signedPayload":"\#(try authority.sign(notification))"}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// wrk's script for storefront GETs: customers in turn, starting at the instance's offset.
    static let storefrontScript = """
        local customers, next_customer
        function init(args)
          customers = tonumber(args[1])
          next_customer = tonumber(args[2]) or 0
        end
        function request()
          next_customer = (next_customer + 1) % customers
          return wrk.format("GET", "/v1/customers/bench-" .. next_customer .. "/storefront?placement=home")
        end
        """

    /// wrk's script for Retention Messaging POSTs: the signed requests in a file, in turn from
    /// the instance's offset, again and again.
    static let retentionScript = """
        local bodies, position = {}, 0
        function init(args)
          for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
          position = tonumber(args[2]) or 0
        end
        function request()
          position = position % #bodies + 1
          return wrk.format("POST", "/v1/apple/retention", { ["Content-Type"] = "application/json" }, bodies[position])
        end
        """

    /// wrk's script for notification POSTs: the signed bodies in a file, each sent once, the
    /// instances taking every n-th; it starts again from the top when they run out.
    static let notificationScript = """
        local bodies, position, stride, first = {}, 0, 1, 1
        function init(args)
          for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
          first = tonumber(args[2]) + 1
          stride = tonumber(args[3])
          position = first - stride
        end
        function request()
          position = position + stride
          if position > #bodies then position = first end
          return wrk.format("POST", "/v1/notifications", { ["Content-Type"] = "application/json" }, bodies[position])
        end
        """
}
