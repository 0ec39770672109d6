import StoreCore

extension AppStoreServerAPIClient {
    /// Send Consumption Information (v2): the answer to a customer's refund request, checked
    /// against Apple's rules before it is sent.
    public func sendConsumptionInformation(_ request: ConsumptionRequest, transactionID: String) async throws(AppStoreServerAPIError) {
        if let violation = request.violation { throw .invalidArgument(violation.message) }
        _ = try await send(.consumption(version: 2, transactionID: transactionID), body: request)
    }

    /// Send Consumption Information (v1), the earlier form.
    public func sendConsumptionData(_ request: ConsumptionRequestV1, transactionID: String) async throws(AppStoreServerAPIError) {
        _ = try await send(.consumption(version: 1, transactionID: transactionID), body: request)
    }
}
