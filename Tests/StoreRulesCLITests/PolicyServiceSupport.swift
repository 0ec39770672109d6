import Foundation
import StoreCore
import StoreTesting
import Synchronization
import Testing

/// A running `PolicyService` binary over a temporary copy of the Backyard Birds folder, a
/// temporary ledger and a signing authority whose root it trusts.
final class ServiceProcess: Sendable {
    static let bundleId = "com.example.backyardbirds"
    static let authority = try! SigningAuthority.generate()
    static let otherAuthority = try! SigningAuthority.generate(name: "Untrusted")

    static let executable: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PolicyService")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return CommandRunner.packageRoot.appendingPathComponent(".build/debug/PolicyService")
    }()

    let directory: URL
    let folder: URL
    let ledgerPath: String
    private let process: Process
    private let input = Pipe()
    private let book = ReplyBook()
    private let lastID = Mutex(0)

    /// Starts the service with `workers` workers; with `rootFromPipe`, its `--root` is a FIFO,
    /// as a shell's `<(…)` hands it over.
    init(workers: Int = 2, rootFromPipe: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-service-\(UUID().uuidString)")
        folder = directory.appendingPathComponent("BackyardBirds")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let example = CommandRunner.packageRoot.appendingPathComponent("Examples/BackyardBirds")
        for name in ["policy.lua", "Products.storekit"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        ledgerPath = directory.appendingPathComponent("ledger.sqlite").path
        let rootPath: String
        if rootFromPipe {
            rootPath = try NamedPipe(serving: Self.authority.rootCertificate.pemRepresentation).path
        } else {
            rootPath = directory.appendingPathComponent("root.pem").path
            try Self.authority.rootCertificate.pemRepresentation.write(toFile: rootPath, atomically: true, encoding: .utf8)
        }

        process = Process()
        process.executableURL = Self.executable
        process.arguments = [
            folder.path, "--ledger", ledgerPath, "--root", rootPath, "--bundle-id", Self.bundleId,
            "--environment", "Sandbox", "--workers", "\(workers)",
        ]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let (book, replies) = (book, output.fileHandleForReading)
        Thread { book.read(from: replies) }.start()
    }

    /// Stops the service (closing its input ends it) and removes its files.
    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes one raw line to the service.
    func send(line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends `request` with a new integer id and returns that id.
    @discardableResult
    func send(_ request: [String: Any]) throws -> Int {
        let id = lastID.withLock { last in
            last += 1
            return last
        }
        var request = request
        request["id"] = id
        send(line: String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self))
        return id
    }

    /// The reply carrying `id` (an `Int` or a `String`), waiting up to `timeout` for it.
    func reply(_ id: Any, timeout: TimeInterval = 60) throws -> [String: Any] {
        guard let reply = book.reply(ReplyBook.key(id is Int ? NSNumber(value: id as! Int) : id), timeout: timeout) else {
            throw ServiceTestFailure("no reply to request \(id) within \(timeout)s")
        }
        return reply
    }

    /// Sends `request` and waits for its reply.
    func request(_ request: [String: Any]) throws -> [String: Any] {
        try reply(try send(request))
    }

    /// Sends `request` and returns its `"result"`, failing when the reply is an error.
    func result(_ request: [String: Any]) throws -> [String: Any] {
        let reply = try self.request(request)
        guard let result = reply["result"] as? [String: Any] else {
            throw ServiceTestFailure("\(request["op"] ?? "?") failed: \(reply)")
        }
        return result
    }

    /// Every line the service wrote so far, in order.
    var outputLines: [String] { book.lines }

    /// Closes the service's input and waits for it to exit; returns its status.
    func finish() throws -> Int32 {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    var isRunning: Bool { process.isRunning }
}

/// The service's replies, by id and in arrival order, filled by a reader thread.
private final class ReplyBook: @unchecked Sendable {
    // `replies` and `received` are used only while `condition` is locked.
    private let condition = NSCondition()
    private var replies: [String: [String: Any]] = [:]
    private var received: [String] = []

    /// Reads reply lines from `handle` until it ends.
    func read(from handle: FileHandle) {
        var buffer = Data()
        while case let chunk = handle.availableData, !chunk.isEmpty {
            buffer.append(chunk)
            condition.lock()
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                received.append(line)
                if let reply = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
                    replies[Self.key(reply["id"])] = reply
                }
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The key of a reply id: integers and strings apart, null as itself.
    static func key(_ id: Any?) -> String {
        switch id {
        case let number as NSNumber: "n\(number.int64Value)"
        case let string as String: "s\(string)"
        default: "null"
        }
    }

    /// The reply under `key`, waiting up to `timeout` for it.
    func reply(_ key: String, timeout: TimeInterval) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while replies[key] == nil {
            guard condition.wait(until: deadline) else { return nil }
        }
        return replies[key]
    }

    /// Every line received so far.
    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return received
    }
}

/// A test failure with a message.
struct ServiceTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Signed payloads for the Backyard Birds catalog, in the Sandbox environment.
enum SignedFixtures {
    /// A moment shortly before now: what the App Store would sign for a purchase just made.
    static let now = Date(millisecondsSince1970: Date().millisecondsSince1970 - 60_000)
    static let day: TimeInterval = 86_400

    /// A one-time purchase: a consumable by default.
    static func consumable(
        id: String, productID: String = "pellet.box", type: TransactionProductType = .consumable, quantity: Int32 = 1,
        revokedAt: Date? = nil, signedAt: Date = now
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            originalTransactionId: id, transactionId: id, bundleId: ServiceProcess.bundleId, productId: productID,
            purchaseDate: now, originalPurchaseDate: now, quantity: quantity, type: type,
            inAppOwnershipType: .purchased, signedDate: signedAt, revocationReason: revokedAt == nil ? nil : .refundedForOtherReason,
            revocationDate: revokedAt, environment: .sandbox, storefront: "USA", transactionReason: .purchase,
            currency: "USD", price: 2990)
    }

    /// A Backyard Birds Pass period: `period` 0 is the purchase, later ones are renewals.
    /// The last period of `periods` is running now.
    static func pass(
        original: String, period: Int, of periods: Int, productID: String = "pass.premium", environment: AppStoreEnvironment = .sandbox
    ) -> JWSTransactionDecodedPayload {
        let start = now.addingTimeInterval(-Double(periods - 1 - period) * 30 * day - day)
        return JWSTransactionDecodedPayload(
            originalTransactionId: original, transactionId: period == 0 ? original : "\(original)-\(period)",
            webOrderLineItemId: "\(original)-\(period)", bundleId: ServiceProcess.bundleId, productId: productID,
            subscriptionGroupIdentifier: "6F3A93AB", purchaseDate: start,
            originalPurchaseDate: now.addingTimeInterval(-Double(periods - 1) * 30 * day - day),
            expiresDate: start.addingTimeInterval(30 * day), quantity: 1, type: .autoRenewableSubscription,
            inAppOwnershipType: .purchased, signedDate: start, environment: environment, storefront: "USA",
            transactionReason: period == 0 ? .purchase : .renewal, currency: "USD", price: 9990)
    }

    /// The renewal info of a pass.
    static func renewalInfo(original: String, productID: String = "pass.premium", autoRenew: Bool) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            originalTransactionId: original, autoRenewProductId: productID, productId: productID,
            autoRenewStatus: autoRenew ? .on : .off, isInBillingRetryPeriod: false, signedDate: now, environment: .sandbox,
            renewalDate: now.addingTimeInterval(29 * day))
    }

    /// A notification carrying the given signed data.
    static func notification(
        type: NotificationTypeV2, subtype: NotificationSubtype? = nil, uuid: String = UUID().uuidString.lowercased(),
        signedTransaction: String?, signedRenewalInfo: String? = nil
    ) -> ResponseBodyV2DecodedPayload {
        ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid,
            data: NotificationData(environment: .sandbox, bundleId: ServiceProcess.bundleId,
                                   signedTransactionInfo: signedTransaction, signedRenewalInfo: signedRenewalInfo),
            version: "2.0", signedDate: now)
    }

    /// `payload` signed by the trusted authority (or by `authority`).
    static func sign<Payload: SignedPayload>(_ payload: Payload, by authority: SigningAuthority = ServiceProcess.authority) throws -> String {
        try authority.sign(payload)
    }
}
