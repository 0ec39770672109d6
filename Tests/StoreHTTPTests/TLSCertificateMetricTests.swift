import Foundation
import StoreCore
import StoreHTTP
import StoreService
import StoreTesting
import Testing

/// A server serving HTTPS tells its router the certificate it serves, whose end of validity
/// `/metrics` reports, so an alert sees it before clients refuse it.
@Suite struct TLSCertificateMetricTests {
    @Test("a server started with a TLS chain reports its leaf's notAfter, and one serving plain HTTP reports none")
    func servedCertificateIsReported() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "storerules-tls-metric-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try SigningAuthority.loadOrCreate(in: folder)
        func text(_ file: SigningAuthority.StoredFile) throws -> String {
            try String(contentsOf: folder.appending(path: file.rawValue), encoding: .utf8)
        }
        let chain = try text(.leafCertificate) + text(.intermediateCertificate)
        let credentials = HTTPServerConfiguration.TLSCredentials(certificatePEM: chain, keyPEM: try text(.leafKey))

        let served = try TestServer { $0.tls = credentials }
        let leaf = authority.leafCertificate
        let metrics = Self.metrics(of: served.router)
        #expect(metrics.contains(
            #"storerules_certificate_expiry_timestamp_seconds{certificate="tls",subject="\#(leaf.subject)"} \#(Int64(leaf.notValidAfter.timeIntervalSince1970))"#),
            "\(metrics)")
        #expect(!metrics.contains(authority.intermediateCertificate.subject), "only the leaf is the certificate served")

        let plain = try TestServer()
        #expect(!Self.metrics(of: plain.router).contains("storerules_certificate_expiry_timestamp_seconds"))
    }

    /// What `GET /metrics` answers on `router` (whose keys are not checked).
    static func metrics(of router: HTTPRouter) -> String {
        String(decoding: router.respond(to: HTTPRequest(method: "GET", path: "/metrics")).body, as: UTF8.self)
    }
}
