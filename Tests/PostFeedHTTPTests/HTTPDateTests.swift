import Foundation
import Testing

@testable import PostFeedHTTP

@Suite struct HTTPDateTests {
    @Test func readsAnIMFFixdate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }

    // Found by Fuzz/ (fuzz-http-dates): a Retry-After with a combining mark after "GMT"
    // made Foundation's DateFormatter trap ("Incorrect range CFRange").
    @Test func nonASCIITextIsNoDateAndDoesNotTrap() {
        let value = "Fri, 31 Dec 1999 23:59:59 GMT\u{0611}o-sto"
        #expect(HTTPDate.parse(value) == nil)
        #expect(RetryPolicy.retryAfter(value, now: Date(timeIntervalSince1970: 0)) == nil)
    }
}
