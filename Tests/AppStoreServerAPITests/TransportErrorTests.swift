import AppStoreServerAPI
import Foundation
import Testing

/// What the transport says when the App Store Server API cannot be reached names the request,
/// never a password the base URL carries.
@Suite struct TransportErrorTests {
    @Test("a server that cannot be reached is named with its URL's password written ***")
    func unreachableServerMasksThePassword() async throws {
        let transport = URLSessionTransport(timeout: 5)
        let request = AppStoreServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/1", body: nil)
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await transport.send(request, to: URL(string: "http://ana:s3cretpw@127.0.0.1:1")!, headers: [:])
        }
        let text = "\(try #require(error))"
        #expect(text.contains("GET http://ana:***@127.0.0.1:1/inApps/v1/transactions/1"), "\(text)")
        #expect(!text.contains("s3cretpw"))
    }
}
