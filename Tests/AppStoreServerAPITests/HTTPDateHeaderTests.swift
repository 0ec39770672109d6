import AppStoreServerAPI
import Foundation
import Testing

/// The one `Date` header: written as RFC 9110's IMF-fixdate in English, read back to the second.
@Suite struct HTTPDateHeaderTests {
    @Test func aDateIsWrittenAsAnIMFFixdateAndReadBack() throws {
        #expect(HTTPDateHeader.text(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        let date = Date(timeIntervalSince1970: 1_796_281_825.75)
        #expect(HTTPDateHeader.text(date) == "Thu, 03 Dec 2026 07:10:25 GMT")
        #expect(HTTPDateHeader.date("Thu, 03 Dec 2026 07:10:25 GMT") == Date(timeIntervalSince1970: 1_796_281_825))
        #expect(HTTPDateHeader.date("2026-12-03T07:10:25Z") == nil)
    }

    @Test func nowIsTheClockToTheSecond() throws {
        let now = try #require(HTTPDateHeader.date(HTTPDateHeader.now))
        #expect(abs(now.timeIntervalSinceNow) < 2)
    }
}
