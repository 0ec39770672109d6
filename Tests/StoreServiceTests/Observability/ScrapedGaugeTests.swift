import Foundation
import StoreCore
import StoreService
import StoreTesting
import Testing

/// The gauges `GET /metrics` reads from the service each time it is scraped show what the
/// service holds: the ledger's unfinished transactions and kept notifications, a failed
/// policy reload, the TLS certificate served and the roots trusted, with their ends of validity.
@Suite struct ScrapedGaugeTests {
    typealias Payloads = BackyardBirdsPayloads

    @Test("a notification kept for a customer not known yet counts 1 until the customer registers, and a transaction stored unfinished counts 1")
    func ledgerBacklogIsCounted() throws {
        try RouterTestService.test { service in
            #expect(Self.samples(of: service)["storerules_pending_notifications"] == 0)
            #expect(Self.samples(of: service)["storerules_unfinished_transactions"] == 0)
            let token = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
            let notification = try service.sign(Payloads.notification(
                type: .oneTimeCharge, signedTransaction: try service.sign(Payloads.consumable(id: "8100", appAccountToken: token))))
            let kept = try service.respond("POST", "/v1/notifications", json: ["signedPayload": notification], key: nil)
            #expect(kept.object["status"] as? String == "pending", "\(kept.bodyText)")
            #expect(Self.samples(of: service)["storerules_pending_notifications"] == 1)

            _ = try service.respond("PUT", "/v1/customers/ivy", json: ["app_account_token": token])
            #expect(Self.samples(of: service)["storerules_pending_notifications"] == 0)

            let unknownProduct = try service.sign(Payloads.consumable(id: "8101", productID: "seed.bag.new"))
            let stored = try service.respond("POST", "/v1/transactions", json: ["customer": "ivy", "signed_transaction": unknownProduct])
            #expect(stored.object["outcome"] as? String == "unfinished", "\(stored.bodyText)")
            #expect(Self.samples(of: service)["storerules_unfinished_transactions"] == 1)
        }
    }

    @Test("a failed reload shows as a policy problem until the policy serves as it should, and both reload results count from 0")
    func policyProblemIsReported() throws {
        try RouterTestService.test { service in
            let before = Self.samples(of: service)
            #expect(before["storerules_policy_problem"] == 0)
            #expect(before[#"storerules_policy_reloads_total{result="failure"}"#] == 0)
            #expect(before[#"storerules_policy_reloads_total{result="success"}"#] == 0)
            service.router.service.reportPolicyProblem("release 7 failed to load")
            #expect(Self.samples(of: service)["storerules_policy_problem"] == 1)
            service.router.service.reportPolicyProblem(nil)
            #expect(Self.samples(of: service)["storerules_policy_problem"] == 0)
        }
    }

    @Test("each root the service trusts and the TLS certificate it serves are reported with their notAfter")
    func certificateExpiryIsReported() throws {
        // A second root, valid until 2031-01-01, and a certificate to serve until 2030-06-27.
        let newRoot = try SigningAuthority.generate(
            name: "Gauge Tests Next", validity: DateInterval(start: Date(timeIntervalSince1970: 1_700_000_000),
                                                             end: Date(timeIntervalSince1970: 1_924_992_000)))
        let tls = try SigningAuthority.generate(
            name: "Gauge Tests TLS", validity: DateInterval(start: Date(timeIntervalSince1970: 1_700_000_000),
                                                            end: Date(timeIntervalSince1970: 1_908_748_800)))
        try RouterTestService.test(configure: { $0.rootCertificates.append(newRoot.rootCertificate) }) { service in
            func sample(_ role: String, _ certificate: X509Certificate) -> String {
                #"storerules_certificate_expiry_timestamp_seconds{certificate="\#(role)",subject="\#(certificate.subject)"}"#
            }
            let root = service.authority.rootCertificate
            var samples = Self.samples(of: service)
            #expect(samples[sample("root", root)] == root.notValidAfter.timeIntervalSince1970)
            #expect(samples[sample("root", newRoot.rootCertificate)] == 1_924_992_000)
            #expect(!samples.keys.contains { $0.contains(#"certificate="tls""#) }, "no TLS certificate is served")

            service.router.metrics.recordTLSCertificate(tls.leafCertificate)
            samples = Self.samples(of: service)
            #expect(samples[sample("tls", tls.leafCertificate)] == 1_908_748_800)
            #expect(samples.keys.filter { $0.hasPrefix("storerules_certificate_expiry_timestamp_seconds") }.count == 3)
        }
    }

    /// Every sample `GET /metrics` answers, by its name and labels as written.
    static func samples(of service: RouterTestService) -> [String: Double] {
        let response = service.respond("GET", "/metrics", key: RouterTestService.adminKey)
        var samples: [String: Double] = [:]
        for line in response.bodyText.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }
}
