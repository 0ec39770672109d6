import AppStoreServerAPI
import Foundation
import StoreCore
import StoreTesting
import Testing

@Suite struct ClientAgainstLocalStoreTests {
    @Test func transactionInfoIsVerifiedAndAnUnknownIdIsApplesError() async throws {
        let harness = try APIStoreHarness()
        let id = try harness.buy("pellet.box")
        let transaction = try await harness.client.transactionInfo(id)
        #expect(transaction.payload.productId == "pellet.box")
        #expect(transaction.payload.transactionId == id)
        await #expect(throws: AppStoreServerAPIError.api(status: 404, code: APIErrorCode(.transactionIdNotFound), message: "no transaction 999")) {
            _ = try await harness.client.transactionInfo("999")
        }
        do {
            _ = try await harness.client.transactionInfo("not-a-number")
            Issue.record("a malformed id is refused")
        } catch {
            #expect(error.code == APIErrorCode(.invalidTransactionId))
            #expect(!error.isRetryable)
        }
    }

    @Test func historyComesInPagesOfTwentyAndARevisionLaterGivesOnlyWhatChanged() async throws {
        let harness = try APIStoreHarness()
        var ids: [String] = []
        for _ in 0..<25 { ids.append(try harness.buy("pellet.single")) }
        var pages: [TransactionHistoryPage] = []
        for try await page in harness.client.transactionHistory(ids[0]) { pages.append(page) }
        #expect(pages.map(\.transactions.count) == [20, 5])
        #expect(pages.map(\.hasMore) == [true, false])
        #expect(pages.flatMap(\.transactions).compactMap(\.payload.transactionId) == ids)
        let later = try harness.buy("pellet.box")
        let since = try await harness.client.transactionHistory(ids[0], from: pages.last?.revision).collect(\.transactions)
        #expect(since.compactMap(\.payload.transactionId) == [later])
    }

    @Test func historyFiltersRepeatAndSortAsApplesDo() async throws {
        let harness = try APIStoreHarness()
        let single = try harness.buy("pellet.single")
        let box = try harness.buy("pellet.box")
        let premium = try harness.buy("pass.premium")
        _ = try harness.buy("nectar.cup")
        let client = harness.client
        let both = try await client.transactionHistory(single, query: TransactionHistoryQuery(productIDs: ["pellet.box", "pellet.single"], sort: .descending))
            .collect(\.transactions)
        #expect(both.compactMap(\.payload.transactionId) == [box, single])
        let subscriptions = try await client.transactionHistory(single, query: TransactionHistoryQuery(productTypes: ["AUTO_RENEWABLE"])).collect(\.transactions)
        #expect(subscriptions.compactMap(\.payload.transactionId) == [premium])
        _ = try harness.store.refund(transactionID: box)
        let revoked = try await client.transactionHistory(single, query: TransactionHistoryQuery(revoked: true)).collect(\.transactions)
        #expect(revoked.compactMap(\.payload.transactionId) == [box])
        let refunds = try await client.refundHistory(single).collect(\.transactions)
        #expect(refunds.compactMap(\.payload.transactionId) == [box])
        await #expect(throws: AppStoreServerAPIError.api(status: 400, code: APIErrorCode(.invalidProductType),
                                                         message: "productType GIFT is not one of AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE, NON_CONSUMABLE")) {
            _ = try await client.transactionHistoryPage(single, query: TransactionHistoryQuery(productTypes: ["GIFT"]))
        }
    }

    @Test func subscriptionStatusesCarryVerifiedRenewalInfoAndFilterByStatus() async throws {
        let harness = try APIStoreHarness()
        let premium = try harness.buy("pass.premium")
        let statuses = try await harness.client.subscriptionStatuses(premium)
        let subscription = try #require(statuses.groups.first?.subscriptions.first)
        #expect(subscription.status == 1)
        #expect(subscription.originalTransactionID == premium)
        #expect(subscription.renewalInfo.payload.autoRenewProductId == "pass.premium")
        #expect(try await harness.client.subscriptionStatuses(premium, statuses: [2, 5]).groups.isEmpty)
        #expect(try await harness.client.subscriptionStatuses(premium, statuses: [1]).groups.count == 1)
    }

    @Test func anOrderIdFindsItsPurchase() async throws {
        let harness = try APIStoreHarness()
        let id = try harness.buy("pellet.box")
        let order = try await harness.client.lookUpOrder(harness.store.orderID(ofTransaction: id))
        #expect(order.isValid)
        #expect(order.transactions.compactMap(\.payload.transactionId) == [id])
        let unknown = try await harness.client.lookUpOrder("AAAAAAAAAA")
        #expect(!unknown.isValid && unknown.transactions.isEmpty)
    }

    @Test func anExtensionMovesTheRenewalOnceForItsRequestIdentifierInAnyLetterCase() async throws {
        let harness = try APIStoreHarness()
        let premium = try harness.buy("pass.premium")
        let before = try #require(try harness.store.subscriptions(customerID: "ana").first?.expirationDate)
        let identifier = UUID().uuidString
        let request = ExtendRenewalDateRequest(extendByDays: 3, extendReasonCode: 3, requestIdentifier: identifier.lowercased())
        let first = try await harness.client.extendRenewalDate(originalTransactionID: premium, request)
        let again = try await harness.client.extendRenewalDate(
            originalTransactionID: premium, ExtendRenewalDateRequest(extendByDays: 3, extendReasonCode: 3, requestIdentifier: identifier.uppercased()))
        #expect(first == again)
        #expect(first.success == true)
        let after = try #require(try harness.store.subscriptions(customerID: "ana").first?.expirationDate)
        #expect(after.timeIntervalSince(before) == 3 * 86_400)
        #expect(first.effectiveDate == after.millisecondsSince1970)
        #expect(try harness.store.notifications(customerID: "ana").filter { $0.notificationType == .renewalExtended }.count == 1)
        let latest = try await harness.client.transactionInfo(premium)
        #expect(latest.payload.expiresDate == after)
        await #expect(throws: AppStoreServerAPIError.invalidArgument("extendByDays is 1–90, not 91")) {
            _ = try await harness.client.extendRenewalDate(
                originalTransactionID: premium, ExtendRenewalDateRequest(extendByDays: 91, extendReasonCode: 0, requestIdentifier: "x"))
        }
    }

    @Test func aMassExtensionMovesExactlyItsProductsSubscribersByItsDaysAndReportsThem() async throws {
        let harness = try APIStoreHarness()
        try harness.buy("pass.premium", "ana")
        try harness.buy("pass.premium", "ben")
        try harness.buy("pass.individual", "cy")
        func renewals() throws -> [String: Date] {
            Dictionary(uniqueKeysWithValues: try harness.store.subscriptions().map { ($0.customerID, $0.expirationDate) })
        }
        let before = try renewals()
        let request = MassExtendRenewalDateRequest(extendByDays: 2, extendReasonCode: 3, requestIdentifier: "outage-2",
                                                   storefrontCountryCodes: nil, productId: "pass.premium")
        #expect(try await harness.client.extendRenewalDateForAllActiveSubscribers(request) == "outage-2")
        let after = try renewals()
        let moved = Dictionary(uniqueKeysWithValues: after.map { ($0.key, before[$0.key].map($0.value.timeIntervalSince)) })
        #expect(moved == ["ana": 2 * 86_400, "ben": 2 * 86_400, "cy": 0])
        #expect(try harness.store.notifications().filter { $0.payload.notificationType == .renewalExtended }.map(\.customerID).sorted()
                == ["ana", "ben"])
        let status = try await harness.client.massExtensionStatus(productID: "pass.premium", requestIdentifier: "outage-2")
        let summary = try #require(try harness.store.notifications().last)
        #expect(summary.notificationType == .renewalExtension && summary.subtype == .summary)
        #expect(summary.payload.summary?.succeededCount == 2 && summary.payload.summary?.requestIdentifier == "outage-2")
        #expect(status.complete == true)
        #expect(status.succeededCount == 2)
        #expect(status.failedCount == 0)
        do {
            _ = try await harness.client.massExtensionStatus(productID: "pass.premium", requestIdentifier: "never")
            Issue.record("the status of a mass extension never asked for is answered")
        } catch {
            #expect(error.code == APIErrorCode(.statusRequestNotFound), "\(error)")
        }
    }

    @Test func consumptionInformationIsRecordedAndApplesRulesAreKept() async throws {
        let harness = try APIStoreHarness()
        let id = try harness.buy("pellet.box")
        let answer = ConsumptionRequest(customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED",
                                        consumptionPercentage: 75_000, refundPreference: "DECLINE")
        try await harness.client.sendConsumptionInformation(answer, transactionID: id)
        let records = try harness.store.consumptionRecords(transactionID: id)
        #expect(records.count == 1)
        #expect(try JSONDecoder().decode(ConsumptionRequest.self, from: Data(try #require(records.first).body.utf8)) == answer)
        var wrong = answer
        wrong.deliveryStatus = "LOST"
        let body = try JSONEncoder().encode(wrong)
        let refused = harness.api.respond(
            to: AppStoreServerAPIRequest(method: "PUT", path: "/inApps/v2/transactions/consumption/\(id)", body: body),
            authorization: "Bearer \(try harness.client.tokens.token())")
        #expect(refused.status == 400)
        #expect(refused.header("Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(ErrorResponse.self, from: refused.body).errorCode == 4000036)
        #expect(try harness.store.consumptionRecords(transactionID: id).count == 1)
    }

    @Test func anAppAccountTokenIsCarriedByLaterSignedData() async throws {
        let harness = try APIStoreHarness()
        let premium = try harness.buy("pass.premium")
        let token = UUID()
        try await harness.client.setAppAccountToken(token, originalTransactionID: premium)
        let statuses = try await harness.client.subscriptionStatuses(premium)
        #expect(statuses.groups.first?.subscriptions.first?.renewalInfo.payload.appAccountToken == token.uuidString.lowercased())
        let renewed = try harness.store.advance(by: StoreDuration(months: 1))
        #expect(!renewed.isEmpty)
        let latest = try await harness.client.subscriptionStatuses(premium)
        #expect(latest.groups.first?.subscriptions.first?.transaction.payload.appAccountToken == token.uuidString.lowercased())
        do {
            try await harness.client.setAppAccountToken(UUID(), originalTransactionID: "999")
            Issue.record("an unknown purchase is refused")
        } catch {
            #expect(error.code == APIErrorCode(.originalTransactionIdNotFound))
        }
    }

    @Test func notificationHistoryPagesThroughTheOutbox() async throws {
        let harness = try APIStoreHarness()
        for _ in 0..<22 { try harness.buy("pellet.single") }
        let now = try harness.store.now().millisecondsSince1970
        let request = NotificationHistoryRequest(startDate: now - 86_400_000, endDate: now + 3_600_000)
        let pages = try await harness.client.notificationHistory(request).collect { [$0.items.map(\.notification.payload)] }
        #expect(pages.map(\.count) == [20, 2])
        let sent = try harness.store.notifications()
        #expect(sent.count == 22)
        #expect(pages.flatMap { $0 }.map(\.notificationUUID) == sent.map(\.payload.notificationUUID), "each once, in the order sent")
        #expect(pages.flatMap { $0 }.allSatisfy { $0.notificationType == .oneTimeCharge })
        await #expect(throws: AppStoreServerAPIError.api(status: 400, code: APIErrorCode(.multipleFiltersSupplied),
                                                         message: "give notificationType or transactionId, not both")) {
            _ = try await harness.client.notificationHistoryPage(NotificationHistoryRequest(
                startDate: now - 1000, endDate: now + 1, notificationType: "ONE_TIME_CHARGE", transactionId: "2000000000000001"))
        }
    }

    @Test func theAppTransactionIsSignedAndVerified() async throws {
        let harness = try APIStoreHarness()
        let id = try harness.buy("pellet.box")
        let app = try await harness.client.appTransactionInfo(id)
        #expect(app.payload.bundleId == APIStoreHarness.bundleID)
        #expect(app.payload.receiptType == .sandbox)
    }

    @Test func aKeyTheStoreDidNotMakeIsUnauthenticated() async throws {
        let harness = try APIStoreHarness()
        let id = try harness.buy("pellet.box")
        let stranger = try AppStoreServerAPIKey.generate(keyID: harness.key.keyID, issuerID: harness.key.issuerID).key
        await #expect(throws: AppStoreServerAPIError.api(status: 401, code: nil, message: nil)) {
            _ = try await APIStoreHarness.client(key: stranger, api: harness.api).transactionInfo(id)
        }
    }
}
