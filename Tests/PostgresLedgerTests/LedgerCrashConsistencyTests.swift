import Foundation
import Synchronization
import Testing
import PostgresLedger
import ServiceCommandLine
import StoreCore
import TestPrerequisites

#if canImport(Glibc)
import Glibc
#endif

/// A child process ingests a stream of purchases and refunds into a ledger — a SQLite file, or
/// a PostgreSQL database when the test server is there — and is killed with SIGKILL at random
/// points; after every kill the ledger must be consistent and hold every acknowledged ingest.
///
/// The child is this test binary run again, with ``childEnvironmentKey`` set so that
/// ``ingestStreamAsCrashChild()`` — skipped in ordinary runs — does the child's work. It prints
/// `LEDGER-ACK <step>` after each ingest returns; the parent reads those acknowledgements.
///
/// The default run kills 20 children; set `STORERULES_LEDGER_CRASH_KILLS` for more. Where the
/// children start and when they are killed come from a seed the test prints on standard error and
/// in its failures; `STORERULES_LEDGER_CRASH_SEED` runs the same choices again.
@Suite(.serialized) struct LedgerCrashConsistencyTests {
    static let childEnvironmentKey = "STORERULES_LEDGER_CRASH_CHILD"
    static let childStartKey = "STORERULES_LEDGER_CRASH_START"
    static let killsKey = "STORERULES_LEDGER_CRASH_KILLS"
    static let seedKey = "STORERULES_LEDGER_CRASH_SEED"
    static let acknowledgementPrefix = "LEDGER-ACK "

    private static var isChild: Bool { ProcessInfo.processInfo.environment[childEnvironmentKey] != nil }
    private static let canRunChildren = FileManager.default.fileExists(atPath: "/proc/self/exe")

    // MARK: - The stream

    /// One ingest of the stream: a purchase, or a refund of an earlier purchase.
    struct Step {
        let payload: JWSTransactionDecodedPayload
        let customerID: String
        let jws: String
        /// The index of the purchase a refund refers to; `nil` for purchases.
        let refundedStep: Int?
    }

    /// Products of the stream; `broken.feeder` is one whose grant decision always fails.
    static let products = ["pellets", "pellets", "pellets", "pellets", "bundle", "recipe", "broken.feeder"]

    /// The stream, the same in parent and child: 150 steps, every tenth a refund of the purchase
    /// six steps before it.
    static let stream: [Step] = (0..<150).map { index in
        if index % 10 == 9 {
            let purchase = purchaseStep(index - 6)
            var refunded = purchase.payload
            refunded.signedDate = LedgerPayloads.date(1_000_000 + Int64(index))
            refunded.revocationDate = LedgerPayloads.date(999_000 + Int64(index))
            refunded.revocationReason = .refundedForOtherReason
            return Step(payload: refunded, customerID: purchase.customerID, jws: LedgerPayloads.jws(refunded), refundedStep: index - 6)
        }
        return purchaseStep(index)
    }

    private static func purchaseStep(_ index: Int) -> Step {
        let product = products[index % products.count]
        let payload = LedgerPayloads.transaction(
            id: "k\(index)", productID: product, type: product == "recipe" ? .nonConsumable : .consumable,
            quantity: Int32(index % 3 + 1), purchasedAt: Int64(index), signedAt: Int64(index))
        return Step(payload: payload, customerID: "c\(index % 4)", jws: LedgerPayloads.jws(payload), refundedStep: nil)
    }

    struct BrokenFeeder: Error, CustomStringConvertible {
        var description: String { "the feeder policy is broken" }
    }

    /// The stream's grant decision.
    static func decide(_ transaction: StoredTransaction) throws -> [Grant] {
        try expectedGrants(productID: transaction.productID, quantity: transaction.purchasedQuantity)
    }

    private static func expectedGrants(productID: String, quantity: Int) throws -> [Grant] {
        switch productID {
        case "pellets": return [Grant(item: "pellet", amount: 5 * quantity)]
        case "bundle": return [Grant(item: "pellet", amount: 2 * quantity), Grant(item: "seed", amount: quantity)]
        case "recipe": return []
        default: throw BrokenFeeder()
        }
    }

    // MARK: - The child

    @Test(.enabled(if: isChild, "runs only as the child process of the crash-consistency test"))
    func ingestStreamAsCrashChild() throws {
        let environment = ProcessInfo.processInfo.environment
        let location = try LedgerLocation(try #require(environment[Self.childEnvironmentKey]))
        let start = Int(environment[Self.childStartKey] ?? "0") ?? 0
        let ledger = try location.open()
        try ledger.retryUnfinished(decide: Self.decide)
        for index in Self.stream.indices.dropFirst(start) {
            let step = Self.stream[index]
            try ledger.ingest(
                transaction: step.payload, jwsRepresentation: step.jws, customerID: step.customerID, decide: Self.decide)
            FileHandle.standardOutput.write(Data("\(Self.acknowledgementPrefix)\(index)\n".utf8))
        }
    }

    // MARK: - The parent

    @Test(.enabled(if: !isChild && TestPrerequisite.runs(canRunChildren), "needs /proc/self/exe to run itself as the child"),
          arguments: LedgerBackend.available)
    func killedIngestsLeaveEveryAcknowledgedTransactionGrantedOnceOrUnfinished(on backend: LedgerBackend) async throws {
        let kills = Int(ProcessInfo.processInfo.environment[Self.killsKey] ?? "") ?? 20
        let location = try backend.freshLocation()
        let path = location.text
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let seed = UInt64(ProcessInfo.processInfo.environment[Self.seedKey] ?? "") ?? UInt64(UInt32.random(in: 0...UInt32.max))
        FileHandle.standardError.write(Data("ledger crash test on \(backend): seed \(seed) (\(Self.seedKey)=\(seed) makes the same choices)\n".utf8))
        var generator = SeededGenerator(seed: seed)
        var acknowledged = Set<Int>()
        var killedMidStream = 0

        for _ in 0..<kills {
            let highest = acknowledged.max() ?? -1
            let start = max(0, highest + 1 - Int.random(in: 0...4, using: &generator))
            let run = try await Self.runChild(
                executable: executable, path: path, start: start,
                killAfterAcknowledgements: Int.random(in: 0...12, using: &generator),
                extraDelayMicroseconds: UInt32.random(in: 0...4_000, using: &generator))
            #expect(!run.timedOut, "the child did not finish within its deadline (seed \(seed))")
            if run.wasKilled {
                killedMidStream += 1
            } else {
                #expect(run.exitStatus == 0, "a child that was not killed failed (status \(run.exitStatus), seed \(seed)): \(run.standardError)")
            }
            acknowledged.formUnion(run.acknowledged)
            let ledger = try location.open()
            let problems = try Self.consistencyProblems(in: ledger, acknowledged: acknowledged)
            #expect(problems.isEmpty, "after a kill at step \(run.acknowledged.max() ?? start) (seed \(seed)): \(problems)")
            if !problems.isEmpty { return }
        }
        #expect(killedMidStream > 0, "no child was killed before finishing the stream (seed \(seed))")

        let final = try await Self.runChild(
            executable: executable, path: path, start: 0, killAfterAcknowledgements: nil, extraDelayMicroseconds: 0)
        #expect(final.exitStatus == 0 && !final.wasKilled, "\(final.standardError)")
        #expect(final.acknowledged == Set(Self.stream.indices))
        let ledger = try location.open()
        #expect(try Self.consistencyProblems(in: ledger, acknowledged: Set(Self.stream.indices)).isEmpty)
        try Self.expectFinalState(of: ledger)
    }

    /// What one child run did.
    struct ChildRun {
        var acknowledged: Set<Int> = []
        var wasKilled = false
        var timedOut = false
        var exitStatus: Int32 = 0
        /// What the child wrote to standard error, for a failure's message.
        var standardError = ""
    }

    /// Runs a child from `start`; kills it with SIGKILL a little after it acknowledged
    /// `killAfterAcknowledgements` ingests (never, when `nil`).
    private static func runChild(
        executable: String, path: String, start: Int, killAfterAcknowledgements: Int?, extraDelayMicroseconds: UInt32
    ) async throws -> ChildRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", "ingestStreamAsCrashChild"]
        var environment = ProcessInfo.processInfo.environment
        environment[childEnvironmentKey] = path
        environment[childStartKey] = "\(start)"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("crash-child-\(UUID().uuidString).stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorFile)
        defer {
            try? errors.close()
            try? FileManager.default.removeItem(at: errorFile)
        }
        process.standardError = errors
        try process.run()

        let timedOut = Mutex(false)
        let watchdog = DispatchWorkItem {
            guard process.isRunning else { return }
            timedOut.withLock { $0 = true }
            kill(process.processIdentifier, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }

        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var run = ChildRun()
                var pending = Data()
                var sentKill = false
                if killAfterAcknowledgements == 0 {
                    usleep(extraDelayMicroseconds)
                    kill(process.processIdentifier, SIGKILL)
                    sentKill = true
                }
                while true {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        if line.hasPrefix(acknowledgementPrefix), let step = Int(line.dropFirst(acknowledgementPrefix.count)) {
                            run.acknowledged.insert(step)
                        }
                    }
                    if !sentKill, let limit = killAfterAcknowledgements, run.acknowledged.count >= limit {
                        usleep(extraDelayMicroseconds)
                        kill(process.processIdentifier, SIGKILL)
                        sentKill = true
                    }
                }
                process.waitUntilExit()
                run.wasKilled = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
                run.exitStatus = process.terminationStatus
                run.timedOut = timedOut.withLock { $0 }
                run.standardError = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
                continuation.resume(returning: run)
            }
        }
    }

    /// Every way the ledger file can disagree with the stream and the acknowledgements.
    private static func consistencyProblems(in ledger: Ledger, acknowledged: Set<Int>) throws -> [String] {
        var problems = try ledger.checkInvariants()
        let purchases = Dictionary(uniqueKeysWithValues: stream.enumerated().compactMap { index, step in
            step.refundedStep == nil ? (step.payload.transactionId!, index) : nil
        })
        var stored: [String: StoredTransaction] = [:]
        for customer in try ledger.customers() {
            for transaction in try ledger.transactions(customerID: customer.id) {
                stored[transaction.id] = transaction
            }
        }
        for (id, transaction) in stored {
            guard let index = purchases[id] else {
                problems.append("\(id) is stored but is in no purchase of the stream")
                continue
            }
            let grants = try ledger.grants(ofTransaction: id)
            let reversed = try ledger.reversedGrants(ofTransaction: id)
            let expected = try? expectedGrants(productID: transaction.productID, quantity: transaction.purchasedQuantity)
            switch transaction.grantState {
            case .granted:
                if grants != expected { problems.append("\(id) (step \(index)) is granted \(grants), expected \(String(describing: expected))") }
                if reversed != (transaction.isRevoked ? grants : []) { problems.append("\(id) has reversals \(reversed) while revoked: \(transaction.isRevoked)") }
            case .unfinished, .revokedBeforeGrant:
                if !grants.isEmpty || !reversed.isEmpty { problems.append("\(id) is \(transaction.grantState) yet has grants \(grants) or reversals \(reversed)") }
            }
        }
        for index in acknowledged {
            let step = stream[index]
            let id = step.payload.transactionId!
            guard let transaction = stored[id] else {
                problems.append("step \(index) (\(id)) was acknowledged and is missing")
                continue
            }
            if step.refundedStep != nil, !transaction.isRevoked {
                problems.append("step \(index) refunded \(id), acknowledged, yet it is not revoked")
            }
            if step.refundedStep == nil, transaction.grantState == .unfinished(.awaitingGrant) {
                problems.append("step \(index) (\(id)) was acknowledged while still awaiting its grant")
            }
        }
        return problems
    }

    /// After a complete run, the ledger holds exactly what the stream implies.
    private static func expectFinalState(of ledger: Ledger) throws {
        let refunded = Set(stream.compactMap(\.refundedStep))
        var expectedBalances: [String: [String: Int]] = [:]
        for (index, step) in stream.enumerated() where step.refundedStep == nil {
            let id = step.payload.transactionId!
            let transaction = try #require(try ledger.transaction(id: id))
            #expect(transaction.jwsRepresentation == (refunded.contains(index) ? stream[index + 6].jws : step.jws))
            let productID = step.payload.productId!
            guard let grants = try? expectedGrants(productID: productID, quantity: Int(step.payload.quantity!)) else {
                let expectedState: GrantState = refunded.contains(index)
                    ? .revokedBeforeGrant : .unfinished(.decisionFailed(BrokenFeeder().description))
                #expect(transaction.grantState == expectedState, "\(id)")
                continue
            }
            #expect(transaction.grantState == .granted, "\(id)")
            #expect(try ledger.grants(ofTransaction: id) == grants)
            if !refunded.contains(index) {
                for grant in grants {
                    expectedBalances[step.customerID, default: [:]][grant.item, default: 0] += grant.amount
                }
            }
        }
        for customer in try ledger.customers() {
            let balances = try ledger.balances(customerID: customer.id).filter { $0.value != 0 }
            #expect(balances == expectedBalances[customer.id, default: [:]], "\(customer.id)")
        }
    }
}
