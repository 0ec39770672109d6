import Dispatch
import Foundation
import SQLiteLedger
import StoreCore

/// The bookkeeping of one run, shared by the sending thread and the reading one.
final class LoadRun: @unchecked Sendable {
    // Every stored property below is used only while `lock` is held, except `window`.
    private let lock = NSLock()
    private let window = DispatchSemaphore(value: ServiceLoadTest.window)
    private let stream: [ServiceLoadTest.Planned]
    /// What each ingest request delivers, by request id.
    private let deliveries: [Int: ServiceLoadTest.Delivery]
    /// The id of the reload request.
    private let reloadID: Int?
    private var sentAt: [UInt64]
    private var latencyMilliseconds: [Double] = []
    private var receivedCount = 0
    private var failedCount = 0
    private var firstProblem: String?
    private var firstFailedReply: String?
    private var grantedTimes: [String: Int] = [:]
    private var grantedItems: [String: [String: Int]] = [:]

    init(_ stream: [ServiceLoadTest.Planned]) {
        self.stream = stream
        var deliveries: [Int: ServiceLoadTest.Delivery] = [:]
        for case .line(_, let id, let delivery?) in stream { deliveries[id] = delivery }
        self.deliveries = deliveries
        reloadID = stream.lazy.compactMap { planned -> Int? in
            if case .reload(let id) = planned { return id }
            return nil
        }.first
        sentAt = [UInt64](repeating: 0, count: stream.count)
    }

    var received: Int { lock.withLock { receivedCount } }
    var failed: Int { lock.withLock { failedCount } }
    var latencies: [Double] { lock.withLock { latencyMilliseconds } }
    var problem: String? { lock.withLock { firstProblem } }
    var firstFailure: String? { lock.withLock { firstFailedReply } }

    /// Writes the stream, keeping at most ``ServiceLoadTest/window`` requests in flight.
    func send(to input: FileHandle, policyFile: URL) {
        for planned in stream {
            guard window.wait(timeout: .now() + .seconds(30)) == .success else {
                record(problem: "no reply for 30 seconds with \(ServiceLoadTest.window) requests in flight")
                return
            }
            let line: String
            switch planned {
            case .line(let text, _, _):
                line = text
            case .reload(let id):
                // An edit that changes the policy's version and nothing else: the reload must swap
                // in a new version while requests keep coming.
                do {
                    let handle = try FileHandle(forWritingTo: policyFile)
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data("\n-- reloaded under load\n".utf8))
                    try handle.close()
                } catch {
                    record(problem: "cannot edit \(policyFile.path): \(error.localizedDescription)")
                    return
                }
                line = #"{"id": \#(id), "op": "reload"}"#
            }
            lock.withLock { sentAt[planned.id] = DispatchTime.now().uptimeNanoseconds }
            do {
                try input.write(contentsOf: Data((line + "\n").utf8))
            } catch {
                record(problem: "PolicyService stopped reading: \(error.localizedDescription)")
                return
            }
        }
    }

    /// Records one reply: its latency, whether it failed, and what an ingest granted.
    func receive(_ reply: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        window.signal()
        // A reply starts with its id: {"id":12,"result":…} or {"id":12,"error":…}.
        let prefix = #"{"id":"#
        let digits = reply.dropFirst(prefix.count).prefix { $0.isNumber }
        guard reply.hasPrefix(prefix), let id = Int(digits), (0..<stream.count).contains(id) else {
            record(problem: "a reply without a stream id: \(reply.prefix(200))")
            return
        }
        let failed = reply[digits.endIndex...].hasPrefix(#","error":"#)
        if !failed, id == reloadID, !Self.swappedVersion(reply) {
            record(problem: "the reload under load did not swap in the edited policy: \(reply)")
        }
        let delivery = failed ? nil : deliveries[id]
        let grants = delivery == nil ? nil : Self.grants(in: reply)
        lock.withLock {
            receivedCount += 1
            latencyMilliseconds.append(Double(now - sentAt[id]) / 1e6)
            if failed {
                failedCount += 1
                if firstFailedReply == nil { firstFailedReply = String(reply.prefix(300)) }
            }
            if let delivery, let grants {
                grantedTimes[delivery.transactionID, default: 0] += 1
                for (item, amount) in grants { grantedItems[delivery.customer, default: [:]][item, default: 0] += amount }
            } else if let delivery {
                grantedTimes[delivery.transactionID, default: 0] += 0
            }
        }
    }

    /// Whether a reload reply names a new version.
    private static func swappedVersion(_ reply: String) -> Bool {
        guard let result = ServiceReplyLine(reply)?.result, let version = result.version else { return false }
        return version != result.previousVersion
    }

    /// What an ingest reply says it granted now: nil when its outcome is not `granted`.
    private static func grants(in reply: String) -> [String: Int]? {
        guard let result = ServiceReplyLine(reply)?.result, result.outcome == "granted", let grants = result.grants else { return nil }
        var items: [String: Int] = [:]
        for grant in grants {
            if let item = grant.item, let amount = grant.amount { items[item, default: 0] += amount }
        }
        return items
    }

    /// Checks that every transaction was granted exactly once, and that the ledger's balances
    /// are the sums of the grants the replies reported.
    func checkGrants(ledgerPath: String) throws {
        let (times, items) = lock.withLock { (grantedTimes, grantedItems) }
        if let (transactionID, count) = times.first(where: { $0.value != 1 }) {
            throw BenchFailure("service load test: transaction \(transactionID) was granted \(count) times, not once")
        }
        let ledger: Ledger
        do {
            ledger = try Ledger(path: ledgerPath)
        } catch {
            throw BenchFailure("service load test: cannot open the service's ledger: \(error)")
        }
        for (customer, expected) in items {
            let balances = try ledger.balances(customerID: customer)
            guard balances == expected else {
                throw BenchFailure("service load test: \(customer) has balances \(balances), and the replies granted \(expected)")
            }
        }
    }

    private func record(problem: String) {
        lock.withLock { if firstProblem == nil { firstProblem = problem } }
    }
}
