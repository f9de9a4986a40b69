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

    /// The formatter-free reading of the fixdate agrees with Foundation's formatter on
    /// dates across four centuries, leap days included.
    @Test func theFastFixdateReadingAgreesWithTheFormatter() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: TimeInterval(Int64.random(in: -2_000_000_000...8_000_000_000, using: &generator)))
            let text = HTTPDate.format(date)
            #expect(HTTPDate.parseFixdate(text) == date, "\(text)")
        }
        #expect(HTTPDate.parseFixdate("Thu, 29 Feb 2024 23:59:59 GMT") == Date(timeIntervalSince1970: 1_709_251_199))
        #expect(HTTPDate.parseFixdate("Sun, 06 Nov 1994 08:49:37 UTC") == nil)
        #expect(HTTPDate.parseFixdate("Sun, 06 Nov 1994 24:00:00 GMT") == nil)
        #expect(HTTPDate.parseFixdate("Sun, 6 Nov 1994 08:49:37 GMT") == nil)
        // The obsolete forms still parse, through the formatter.
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }
}
