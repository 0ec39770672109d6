import AppStoreServerAPI
import Testing

@Suite struct APIErrorCodeTests {
    @Test func retryableCodesAreApplesRetryableOnesAndTheRateLimit() {
        let retryable = APIErrorCode.Known.allCases.filter { APIErrorCode($0).isRetryable }.map(\.rawValue).sorted()
        #expect(retryable == [4040002, 4040004, 4040006, 4290000, 5000001])
    }

    @Test func anUndocumentedCodeKeepsItsNumber() {
        let code = APIErrorCode(rawValue: 4999999)
        #expect(code.known == nil)
        #expect(code.description == "4999999")
        #expect(APIErrorCode(rawValue: 4040010).description == "4040010 (transactionIdNotFound)")
    }
}
