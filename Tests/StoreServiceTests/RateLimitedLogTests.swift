import Foundation
import StoreCore
import StoreService
import StoreTesting
import Synchronization
import Testing

/// Lines that may repeat on every request are written once per interval of each kind, and the
/// next one says how many were left out.
@Suite struct RateLimitedLogTests {
    final class Lines: Sendable {
        let written = Mutex([String]())
        var all: [String] { written.withLock { $0 } }
    }

    @Test("the first line of a kind is written at once; repeats within the interval are counted, not written")
    func repeatsWithinTheIntervalAreCounted() {
        let lines = Lines()
        let log = RateLimitedLog(interval: .seconds(3600)) { line in lines.written.withLock { $0.append(line) } }
        for number in 1...5 { log.log("refused \(number)", kind: "root") }
        log.log("refused by bundle id", kind: "bundle")
        #expect(lines.all == ["refused 1", "refused by bundle id"])
    }

    @Test("a log line keeps its line breaks as \\n, whatever their form, so it stays one line")
    func lineBreaksAreWrittenEscaped() {
        #expect("policy.lua:3: boom\nstack traceback:\r\n\t[C]: in ?\rend".asLogLine
                == #"policy.lua:3: boom\nstack traceback:\n\t[C]: in ?\nend"#.replacingOccurrences(of: #"\t"#, with: "\t"))
    }

    @Test("after the interval the next line is written with the count of those left out, on one line")
    func theNextLineSaysHowManyWereLeftOut() {
        let lines = Lines()
        let start = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        let log = RateLimitedLog(interval: .seconds(60), now: { start + elapsed.withLock { $0 } }) { line in
            lines.written.withLock { $0.append(line) }
        }
        log.log("first", kind: "root")
        elapsed.withLock { $0 = .seconds(59) }
        log.log("left out", kind: "root")
        log.log("left out too", kind: "root")
        elapsed.withLock { $0 = .seconds(61) }
        log.log("third\nwith a newline", kind: "root")
        log.log("left out again", kind: "root")
        #expect(lines.all == ["first", #"third\nwith a newline (2 more like it since the last such line)"#])
    }
}

/// A refused notification leaves one log line that says which option to check, never one per
/// refusal: a wrong `--root` or `--bundle-id` shows at once and does not flood the log.
@Suite struct NotificationRefusalLogTests {
    static func notification(bundleID: String, signedBy authority: SigningAuthority) throws -> String {
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: .test, notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(environment: .sandbox, bundleId: bundleID), version: "2.0", signedDate: Date())
        return try authority.sign(payload)
    }

    @Test("an untrusted chain logs one line naming --root, a wrong bundle id one naming --bundle-id, junk one naming neither; repeats are left out")
    func refusalsLogOneLineEachNamingTheOption() throws {
        let lines = RateLimitedLogTests.Lines()
        let service = try RouterTestService { line in lines.written.withLock { $0.append(line) } }
        defer { service.cleanUp() }
        let stranger = try SigningAuthority.generate(name: "Someone Else")
        for _ in 0..<3 {
            let untrusted = try Self.notification(bundleID: "com.example.backyardbirds", signedBy: stranger)
            #expect(service.respond("POST", "/v1/notifications", key: nil, body: #"{"signedPayload": "\#(untrusted)"}"#).status == 400)
            let otherApp = try Self.notification(bundleID: "com.example.other", signedBy: service.authority)
            #expect(service.respond("POST", "/v1/notifications", key: nil, body: #"{"signedPayload": "\#(otherApp)"}"#).status == 400)
        }
        #expect(service.respond("POST", "/v1/notifications", key: nil, body: #"{"signedPayload": "e30.e30.AAAA"}"#).status == 400)
        let refusals = lines.all.filter { $0.contains("a notification was refused") }
        #expect(refusals.count == 3, "\(lines.all)")
        #expect(refusals.allSatisfy { $0.hasPrefix("request ") })
        #expect(refusals.contains { $0.contains("not a notification signed as the App Store signs one") && !$0.contains("--root") },
                "\(refusals)")
        #expect(refusals.contains { $0.contains("VERIFICATION_FAILURE") && $0.contains("check --root") }, "\(refusals)")
        #expect(refusals.contains { $0.contains("INVALID_APP_IDENTIFIER") && $0.contains("check --bundle-id") }, "\(refusals)")
        #expect(refusals.allSatisfy { !$0.contains("\n") })
    }
}
