import AppStoreServerAPI
import Foundation
import StoreCore
import StoreTesting
import Testing

/// The client reads answers shaped as Apple's documentation and its server libraries show them
/// (extra fields ignored, a history's `"revision": "0"` with no transactions), with signed
/// items this test signs, so their verification runs too.
@Suite struct DocumentedResponsesTests {
    static let bundleID = "com.example"

    static func client(answering steps: [ScriptedTransport.Step]) throws -> (AppStoreServerAPIClient, ScriptedTransport) {
        let transport = ScriptedTransport(steps)
        let key = try AppStoreServerAPIKey.generate(keyID: "KEY", issuerID: "ISSUER").key
        let verifier = try SignedDataVerifier(rootCertificates: [APIStoreHarness.authority.rootCertificate], bundleId: bundleID,
                                              environment: .sandbox)
        return (try AppStoreServerAPIClient(key: key, verifier: verifier, baseURL: URL(string: "https://api.storekit-sandbox.apple.com")!,
                                            transport: transport, retry: .never), transport)
    }

    static func json(_ text: String, status: Int = 200) -> ScriptedTransport.Step {
        .answer(AppStoreServerAPIResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8)))
    }

    static let signedDate = Date(millisecondsSince1970: 1_698_148_900_000)

    static func signedTransaction() throws -> String {
        try APIStoreHarness.authority.sign(JWSTransactionDecodedPayload(
            originalTransactionId: "2312412", transactionId: "23456", webOrderLineItemId: "9993", bundleId: bundleID, productId: "com.example.product",
            subscriptionGroupIdentifier: "55555", purchaseDate: signedDate, originalPurchaseDate: signedDate,
            expiresDate: signedDate.addingTimeInterval(30 * 86_400), quantity: 1, type: .autoRenewableSubscription,
            inAppOwnershipType: .purchased, signedDate: signedDate, environment: .sandbox, storefront: "USA", storefrontId: "143441",
            transactionReason: .purchase, currency: "USD", price: 10_990))
    }

    @Test func anEmptyHistoryWithRevisionZeroIsOnePageWithoutTransactions() async throws {
        let (client, _) = try Self.client(answering: [Self.json(
            #"{"revision": "0", "bundleId": "com.example", "environment": "Sandbox", "hasMore": false, "signedTransactions": []}"#)])
        let pages = try await client.transactionHistory("2000000376851165").collect { [$0] }
        #expect(pages.count == 1)
        #expect(pages.first?.revision == "0" && pages.first?.hasMore == false && pages.first?.transactions.isEmpty == true)
    }

    @Test func aStatusAnswerWithFieldsTheClientDoesNotKnowIsRead() async throws {
        let transaction = try Self.signedTransaction()
        let renewal = try APIStoreHarness.authority.sign(JWSRenewalInfoDecodedPayload(
            originalTransactionId: "2312412", autoRenewProductId: "com.example.product", productId: "com.example.product",
            autoRenewStatus: .on, signedDate: Self.signedDate, environment: .sandbox))
        let (client, transport) = try Self.client(answering: [Self.json("""
            {"environment": "Sandbox", "appAppleId": 5454545, "bundleId": "com.example", "futureField": {"nested": [1, 2]},
             "data": [{"subscriptionGroupIdentifier": "sub_group_one",
                       "lastTransactions": [{"status": 1, "originalTransactionId": "2312412",
                                             "signedTransactionInfo": "\(transaction)", "signedRenewalInfo": "\(renewal)"}]}]}
            """)])
        let statuses = try await client.subscriptionStatuses("4321", statuses: [2, 1])
        #expect(transport.requests.first?.target == "/inApps/v1/subscriptions/4321?status=2&status=1")
        let subscription = try #require(statuses.groups.first?.subscriptions.first)
        #expect(statuses.groups.first?.groupID == "sub_group_one")
        #expect(subscription.status == 1 && subscription.transaction.payload.transactionId == "23456")
        #expect(subscription.renewalInfo.payload.autoRenewProductId == "com.example.product")
    }

    @Test func aSignedItemThatDoesNotVerifyFailsTheWholeAnswer() async throws {
        var transaction = try Self.signedTransaction()
        transaction.removeLast(4)
        transaction += "AAAA"
        let (client, _) = try Self.client(answering: [Self.json(#"{"signedTransactionInfo": "\#(transaction)"}"#)])
        do {
            _ = try await client.transactionInfo("23456")
            Issue.record("a tampered transaction is refused")
        } catch {
            guard case .verification = error else { throw error }
        }
    }

    @Test func documentedAnswersOfTheOtherEndpointsAreRead() async throws {
        let transaction = try Self.signedTransaction()
        let notification = try APIStoreHarness.authority.sign(ResponseBodyV2DecodedPayload(
            notificationType: .test, notificationUUID: "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6",
            data: NotificationData(environment: .sandbox, appAppleId: 41234, bundleId: Self.bundleID), version: "2.0", signedDate: Self.signedDate))
        let (client, transport) = try Self.client(answering: [
            Self.json(#"{"status": 1}"#),
            Self.json(#"{"status": 0, "signedTransactions": ["\#(transaction)"]}"#),
            Self.json(#"{"originalTransactionId": "2312412", "webOrderLineItemId": "9993", "success": true, "effectiveDate": 1698148900000}"#),
            Self.json(#"{"requestIdentifier": "758883e8-151b-47b7-abd0-60c4d804c2f5", "complete": true, "completeDate": 1698148900000, "succeededCount": 30, "failedCount": 2}"#),
            Self.json(#"{"testNotificationToken": "ce3af791-365e-4c60-841b-1674b43c1609_1698148900000"}"#),
            Self.json("""
                {"signedPayload": "\(notification)", "sendAttempts": [{"attemptDate": 1698148900000, "sendAttemptResult": "NO_RESPONSE"},
                 {"attemptDate": 1698148950000, "sendAttemptResult": "SUCCESS"}]}
                """),
            Self.json("""
                {"paginationToken": "57715481-805a-4283-8499-1c19b5d6b20a", "hasMore": true,
                 "notificationHistory": [{"sendAttempts": [{"attemptDate": 1698148900000, "sendAttemptResult": "NO_RESPONSE"}],
                                          "signedPayload": "\(notification)"}]}
                """),
            Self.json(#"{"errorCode": 4040010, "errorMessage": "Transaction id not found."}"#, status: 404),
        ])
        #expect(try await !client.lookUpOrder("W002182").isValid)
        #expect(try await client.lookUpOrder("W002182").transactions.first?.payload.transactionId == "23456")
        let extended = try await client.extendRenewalDate(originalTransactionID: "4124214",
                                                          ExtendRenewalDateRequest(extendByDays: 45, extendReasonCode: 1, requestIdentifier: "fdf964a4-233b-486c-aac1-97d8d52688ac"))
        #expect(extended.effectiveDate == 1_698_148_900_000 && extended.success == true)
        let mass = try await client.massExtensionStatus(productID: "com.example.product", requestIdentifier: "20fba8a0-2b80-4a7d-a17f-85c1854727f8")
        #expect(mass.succeededCount == 30 && mass.failedCount == 2)
        #expect(try await client.requestTestNotification() == "ce3af791-365e-4c60-841b-1674b43c1609_1698148900000")
        let status = try await client.testNotificationStatus("8cd2974c-f905-492a-bf9a-b2f47c791d19_1698148900000")
        #expect(status.sendAttempts.map(\.sendAttemptResult) == ["NO_RESPONSE", "SUCCESS"])
        let page = try await client.notificationHistoryPage(NotificationHistoryRequest(startDate: 1_698_148_900_000, endDate: 1_698_148_950_000,
                                                                                       notificationType: "SUBSCRIBED", onlyFailures: true),
                                                           paginationToken: "a036bc0e-52b8-4bee-82fc-8c24cb6715d6")
        #expect(page.hasMore && page.paginationToken == "57715481-805a-4283-8499-1c19b5d6b20a")
        #expect(page.items.first?.notification.payload.notificationType == .test)
        await #expect(throws: AppStoreServerAPIError.api(status: 404, code: APIErrorCode(.transactionIdNotFound), message: "Transaction id not found.")) {
            _ = try await client.transactionInfo("1234")
        }
        let bodies = transport.requests.compactMap(\.body).map { String(decoding: $0, as: UTF8.self) }
        #expect(bodies.contains(#"{"extendByDays":45,"extendReasonCode":1,"requestIdentifier":"fdf964a4-233b-486c-aac1-97d8d52688ac"}"#))
        #expect(bodies.contains(#"{"endDate":1698148950000,"notificationType":"SUBSCRIBED","onlyFailures":true,"startDate":1698148900000}"#))
    }
}
