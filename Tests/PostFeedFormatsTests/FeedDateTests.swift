import Foundation
import PostFeedFormats
import Testing

@Suite("Feed dates")
struct FeedDateTests {
    @Test(
        "RFC 822 and the variants feeds send",
        arguments: [
            ("Sat, 07 Sep 2002 09:42:31 GMT", "2002-09-07T09:42:31Z"),
            ("Sat, 07 Sep 2002 09:42:31 +0000", "2002-09-07T09:42:31Z"),
            ("Sat, 7 Sep 2002 09:42:31 -0400", "2002-09-07T13:42:31Z"),
            ("Saturday, 07 September 2002 09:42:31 UT", "2002-09-07T09:42:31Z"),
            ("07 Sep 2002 09:42 EDT", "2002-09-07T13:42:00Z"),
            ("Sat, 07 Sep 02 09:42:31 PST", "2002-09-07T17:42:31Z"),
            ("Thu, 01 Jan 70 00:00:00 Z", "1970-01-01T00:00:00Z"),
            ("Mon,02 Jun 2025 14:05:09 +05:30", "2025-06-02T08:35:09Z"),
            ("Tue, 03 Jun 2003 09:39:21", "2003-06-03T09:39:21Z"),
            ("Wed, 04 Jun 2025 18:30:00 CST", "2025-06-05T00:30:00Z"),
            ("Wed, 04 Jun 2025 18:30:00 MDT", "2025-06-05T00:30:00Z"),
            ("Wed, 04 Jun 2025 18:30:00 A", "2025-06-04T18:30:00Z"),
            ("2025-06-04T12:00:00+02:00", "2025-06-04T10:00:00Z"),
        ])
    func rfc822(text: String, expected: String) throws {
        let expectedDate = try #require(FeedDate.parseRFC3339(expected))
        #expect(FeedDate.parseRFC822(text) == expectedDate, "\(text)")
    }

    @Test("impossible RFC 822 dates are nil", arguments: ["", "yesterday", "31 Feb 2025 10:00:00 GMT", "Sat, 07 Foo 2002 09:42:31 GMT", "07 Sep 2002 25:00:00 GMT"])
    func impossible822(text: String) {
        #expect(FeedDate.parseRFC822(text) == nil, "\(text)")
    }

    @Test(
        "RFC 3339",
        arguments: [
            ("2003-12-13T18:30:02Z", 1_071_340_202.0),
            ("2003-12-13T18:30:02.25Z", 1_071_340_202.25),
            ("2003-12-13T18:30:02+01:00", 1_071_336_602.0),
            ("2003-12-13t18:30:02z", 1_071_340_202.0),
            ("2003-12-13 18:30:02-05:00", 1_071_358_202.0),
            ("2003-12-13", 1_071_273_600.0),
        ])
    func rfc3339(text: String, seconds: Double) {
        #expect(FeedDate.parseRFC3339(text)?.timeIntervalSince1970 == seconds, "\(text)")
    }

    @Test("RFC 3339 agrees with Foundation", arguments: ["2025-05-30T10:00:00Z", "2000-02-29T23:59:59Z", "1999-12-31T23:00:00-01:00"])
    func sameAsFoundation(text: String) throws {
        let foundation = try Date(text, strategy: .iso8601)
        #expect(FeedDate.parseRFC3339(text) == foundation)
    }

    @Test("impossible RFC 3339 dates are nil", arguments: ["2025-02-29T00:00:00Z", "2025-13-01T00:00:00Z", "2025-06-01T10:00:00Zjunk", "June 1"])
    func impossible3339(text: String) {
        #expect(FeedDate.parseRFC3339(text) == nil, "\(text)")
    }
}
