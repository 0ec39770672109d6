import AppStoreServerAPI
import CommandLineOptions
import StoreCore

extension AppStoreCommand {
    /// Sends the consumption information the options give about transaction `transactionID`,
    /// held first to the rules a policy's `consumption` hook is held to (``ConsumptionAnswer``'s
    /// validation, for the transaction's own type, which `client` reads): what the hook would be
    /// refused, the command refuses with the same words, and sends nothing.
    ///
    /// - Throws: ``UsageError`` for a missing option or an answer that breaks Apple's rules;
    ///   the client's error when the transaction cannot be read or the answer cannot be sent.
    static func sendConsumption(_ parsed: ParsedArguments, transactionID: String, client: AppStoreServerAPIClient) async throws {
        let delivery = try parsed.required(deliveryStatus)
        let consumed = try parsed.value(of: percentage)
        let refundPreference = try parsed.value(of: preference)
        let transaction = try await client.transactionInfo(transactionID)
        let answer: ConsumptionAnswer
        do {
            answer = try ConsumptionAnswer(customerConsented: true, deliveryStatus: delivery, consumptionPercentage: consumed,
                                           refundPreference: refundPreference, sampleContentProvided: parsed.flag(sampleContent),
                                           autoRenewable: transaction.payload.type == .autoRenewableSubscription)
        } catch {
            throw UsageError(error.description)
        }
        try await client.sendConsumptionInformation(ConsumptionRequest(answer), transactionID: transactionID)
    }
}
