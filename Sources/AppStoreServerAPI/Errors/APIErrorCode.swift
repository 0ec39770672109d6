/// The numeric `errorCode` the App Store Server API answers a failure with, each one Apple
/// documents (and its Python library names), with whether trying again can succeed.
///
/// A code Apple adds later is kept as a number by ``AppStoreServerAPIError``; it is not lost.
public struct APIErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number Apple sends.
    public let rawValue: Int

    /// A code from its number.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The documented code's name, when this is one.
    public var known: Known? { Known(rawValue: rawValue) }

    /// Whether Apple documents the error as one to try again: its `…Retryable` codes and the
    /// rate limit.
    public var isRetryable: Bool {
        switch known {
        case .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable,
             .generalInternalRetryable, .rateLimitExceeded:
            true
        default:
            false
        }
    }

    /// `4040010 (transactionIdNotFound)`, or the number alone for an undocumented code.
    public var description: String {
        known.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }

    /// Every code Apple documents for the App Store Server API.
    public enum Known: Int, CaseIterable, Sendable {
        /// An error that indicates an invalid request.
        case generalBadRequest = 4000000
        /// An error that indicates an invalid app identifier.
        case invalidAppIdentifier = 4000002
        /// An error that indicates an invalid request revision.
        case invalidRequestRevision = 4000005
        /// An error that indicates an invalid transaction identifier.
        case invalidTransactionId = 4000006
        /// An error that indicates an invalid original transaction identifier.
        case invalidOriginalTransactionId = 4000008
        /// An error that indicates an invalid extend-by-days value.
        case invalidExtendByDays = 4000009
        /// An error that indicates an invalid reason code.
        case invalidExtendReasonCode = 4000010
        /// An error that indicates an invalid request identifier.
        case invalidRequestIdentifier = 4000011
        /// An error that indicates that the start date is earlier than the earliest allowed date.
        case startDateTooFarInPast = 4000012
        /// An error that indicates that the end date precedes the start date, or the two dates are equal.
        case startDateAfterEndDate = 4000013
        /// An error that indicates the pagination token is invalid.
        case invalidPaginationToken = 4000014
        /// An error that indicates the start date is invalid.
        case invalidStartDate = 4000015
        /// An error that indicates the end date is invalid.
        case invalidEndDate = 4000016
        /// An error that indicates the pagination token expired.
        case paginationTokenExpired = 4000017
        /// An error that indicates the notification type or subtype is invalid.
        case invalidNotificationType = 4000018
        /// An error that indicates the request is invalid because it has too many constraints applied.
        case multipleFiltersSupplied = 4000019
        /// An error that indicates the test notification token is invalid.
        case invalidTestNotificationToken = 4000020
        /// An error that indicates an invalid sort parameter.
        case invalidSort = 4000021
        /// An error that indicates an invalid product type parameter.
        case invalidProductType = 4000022
        /// An error that indicates the product ID parameter is invalid.
        case invalidProductId = 4000023
        /// An error that indicates an invalid subscription group identifier.
        case invalidSubscriptionGroupIdentifier = 4000024
        /// An error that indicates the query parameter exclude-revoked is invalid.
        case invalidExcludeRevoked = 4000025
        /// An error that indicates an invalid in-app ownership type parameter.
        case invalidInAppOwnershipType = 4000026
        /// An error that indicates a required storefront country code is empty.
        case invalidEmptyStorefrontCountryCodeList = 4000027
        /// An error that indicates a storefront code is invalid.
        case invalidStorefrontCountryCode = 4000028
        /// An error that indicates the revoked parameter contains an invalid value.
        case invalidRevoked = 4000030
        /// An error that indicates the status parameter is invalid.
        case invalidStatus = 4000031
        /// An error that indicates the value of the account tenure field is invalid.
        case invalidAccountTenure = 4000032
        /// An error that indicates the value of the app account token field is invalid.
        case invalidAppAccountToken = 4000033
        /// An error that indicates the value of the consumption status field is invalid.
        case invalidConsumptionStatus = 4000034
        /// An error that indicates the customer consented field is invalid or doesn’t indicate that the customer consented.
        case invalidCustomerConsented = 4000035
        /// An error that indicates the value in the delivery status field is invalid.
        case invalidDeliveryStatus = 4000036
        /// An error that indicates the value in the lifetime dollars purchased field is invalid.
        case invalidLifetimeDollarsPurchased = 4000037
        /// An error that indicates the value in the lifetime dollars refunded field is invalid.
        case invalidLifetimeDollarsRefunded = 4000038
        /// An error that indicates the value in the platform field is invalid.
        case invalidPlatform = 4000039
        /// An error that indicates the value in the playtime field is invalid.
        case invalidPlayTime = 4000040
        /// An error that indicates the value in the sample content provided field is invalid.
        case invalidSampleContentProvided = 4000041
        /// An error that indicates the value in the user status field is invalid.
        case invalidUserStatus = 4000042
        /// An error that indicates the transaction identifier doesn’t represent a consumable in-app purchase.
        case invalidTransactionNotConsumable = 4000043
        /// An error that indicates the transaction identifier represents an unsupported in-app purchase type.
        case invalidTransactionTypeNotSupported = 4000047
        /// An error that indicates the endpoint doesn't support an app transaction ID.
        case appTransactionIdNotSupportedError = 4000048
        /// An error that indicates the image that's uploading is invalid.
        case invalidImage = 4000161
        /// An error that indicates the header text is too long.
        case headerTooLong = 4000162
        /// An error that indicates the body text is too long.
        case bodyTooLong = 4000163
        /// An error that indicates the locale is invalid.
        case invalidLocale = 4000164
        /// An error that indicates the alternative text for an image is too long.
        case altTextTooLong = 4000175
        /// An error that indicates the app account token value is not a valid UUID.
        case invalidAppAccountTokenUuidError = 4000183
        /// An error that indicates the transaction is for a product the customer obtains through Family Sharing,
        case familyTransactionNotSupportedError = 4000185
        /// An error that indicates the endpoint expects an original transaction identifier.
        case transactionIdIsNotOriginalTransactionIdError = 4000187
        /// An error the API returns that indicates the performance test request is invalid.
        case invalidPerformanceTestRequest = 4000211
        /// An error that indicates the request ID is invalid.
        case invalidRequestId = 4000212
        /// An error that indicates an error with an existing test.
        case existingPerformanceTestRun = 4000213
        /// An error that indicates the URL is invalid.
        case badRequestRealtimeUrl = 4000215
        /// An error that indicates the image size provided is invalid.
        case badRequestImageSize = 4000216
        /// An error that indicates there are too many bullet points.
        case badRequestTooManyBulletPoints = 4000218
        /// An error that indicates the text for a bullet point is too long.
        case badRequestBulletPointTextTooLong = 4000219
        /// An error that indicates that no image object is included, but the request indicates that the header should be placed above the image.
        case badRequestAboveImageRequiresAnImage = 4000224
        /// An error that indicates the subscription doesn't qualify for a renewal-date extension due to its subscription state.
        case subscriptionExtensionIneligible = 4030004
        /// An error that indicates the subscription doesn’t qualify for a renewal-date extension because it has already received the maximum extensions.
        case subscriptionMaxExtension = 4030005
        /// An error that indicates a subscription isn't directly eligible for a renewal date extension because the user obtained it through Family Sharing.
        case familySharedSubscriptionExtensionIneligible = 4030007
        /// An error that indicates when you reach the maximum number of uploaded images.
        case maximumNumberOfImagesReached = 4030014
        /// An error that indicates when you reach the maximum number of uploaded messages.
        case maximumNumberOfMessagesReached = 4030016
        /// An error that indicates the message isn't in the approved state, so you can't configure it as a default message.
        case messageNotApproved = 4030017
        /// An error that indicates the image isn't in the approved state, so you can't configure it as part of a default message.
        case imageNotApproved = 4030018
        /// An error that indicates the image is currently in use as part of a message, so you can't delete it.
        case imageInUse = 4030019
        /// An error that indicates that passing a performance test is required before you can set a URL for the production environment.
        case forbiddenNoPassingTest = 4030026
        /// An error that indicates the App Store account wasn’t found.
        case accountNotFound = 4040001
        /// An error response that indicates the App Store account wasn’t found, but you can try again.
        case accountNotFoundRetryable = 4040002
        /// An error that indicates the app wasn’t found.
        case appNotFound = 4040003
        /// An error response that indicates the app wasn’t found, but you can try again.
        case appNotFoundRetryable = 4040004
        /// An error that indicates an original transaction identifier wasn't found.
        case originalTransactionIdNotFound = 4040005
        /// An error response that indicates the original transaction identifier wasn’t found, but you can try again.
        case originalTransactionIdNotFoundRetryable = 4040006
        /// An error that indicates that the App Store server couldn’t find a notifications URL for your app in this environment.
        case serverNotificationUrlNotFound = 4040007
        /// An error that indicates that the test notification token is expired or the test notification status isn’t available.
        case testNotificationNotFound = 4040008
        /// An error that indicates the server didn't find a subscription-renewal-date extension request for the request identifier and product identifier you provided.
        case statusRequestNotFound = 4040009
        /// An error that indicates a transaction identifier wasn't found.
        case transactionIdNotFound = 4040010
        /// An error that indicates the system can't find the image identifier.
        case imageNotFound = 4040014
        /// An error that indicates the system can't find the message identifier.
        case messageNotFound = 4040015
        /// An error the API returns if the service can't find the specified test run.
        case performanceTestRunNotFound = 4040018
        /// An error response that indicates an app transaction doesn’t exist for the specified customer.
        case appTransactionDoesNotExistError = 4040019
        /// An error that indicates a default message isn’t configured.
        case defaultMessageNotFound = 4040020
        /// An error that indicates that the URL for your endpoint isn’t configured.
        case realtimeUrlNotFound = 4040021
        /// An error that indicates the image identifier already exists.
        case imageAlreadyExists = 4090000
        /// An error that indicates the message identifier already exists.
        case messageAlreadyExists = 4090001
        /// An error that indicates that the request exceeded the rate limit.
        case rateLimitExceeded = 4290000
        /// An error that indicates a general internal error.
        case generalInternal = 5000000
        /// An error response that indicates an unknown error occurred, but you can try again.
        case generalInternalRetryable = 5000001
    }
}

extension APIErrorCode {
    /// The documented code `known`.
    public init(_ known: Known) {
        rawValue = known.rawValue
    }
}
