import Foundation
import Testing

@testable import PostFeedHTTP

@Suite struct HTTPFreshnessTests {
    private let now = Date(timeIntervalSince1970: 1_760_000_000)

    @Test func ageCountsAgainstMaxAge() {
        let freshness = HTTPFreshness(headers: ["Cache-Control": "max-age=60", "Age": "15"], now: now)
        #expect(freshness.expiresAt == now.addingTimeInterval(45))
    }

    // Found by Fuzz/ (fuzz-http-dates): `max-age` minus a negative `Age` overflowed and
    // trapped on the largest max-age. An Age below zero is invalid and counts as zero.
    @Test func aNegativeAgeNeitherTrapsNorExtendsTheLifetime() {
        let huge = HTTPFreshness(headers: ["Cache-Control": "max-age=9223372036854775807", "Age": "-1"], now: now)
        #expect(huge.expiresAt == now.addingTimeInterval(TimeInterval(Int.max)))

        let small = HTTPFreshness(headers: ["Cache-Control": "max-age=60", "Age": "-30"], now: now)
        #expect(small.expiresAt == now.addingTimeInterval(60))
    }

    @Test func aNegativeMaxAgeIsExpiredAtOnce() {
        let freshness = HTTPFreshness(
            headers: ["Cache-Control": "max-age=-9223372036854775808", "Age": "5"], now: now)
        #expect(freshness.expiresAt == now)
    }

    // MARK: The one policy for pages and images (issue 15: one cached-HTTP path)

    @Test func withoutExplicitLifetimeATenthOfTheTimeSinceLastModifiedCappedAtADay() {
        let tenDaysAgo = HTTPDate.format(now.addingTimeInterval(-10 * 3600))
        let recent = HTTPFreshness(headers: ["Last-Modified": tenDaysAgo, "Date": HTTPDate.format(now)], now: now)
        #expect(recent.isHeuristic)
        #expect(recent.expiresAt == now.addingTimeInterval(3600))  // a tenth of 10 hours

        let old = HTTPFreshness(headers: ["Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"], now: now)
        #expect(old.expiresAt == now.addingTimeInterval(HTTPFreshness.heuristicLimit))

        let future = HTTPFreshness(headers: ["Last-Modified": HTTPDate.format(now.addingTimeInterval(600))], now: now)
        #expect(future.expiresAt == now)
    }

    @Test func nothingToGoOnIsExpiredAtOnceButStorable() {
        let bare = HTTPFreshness(headers: [:], now: now)
        #expect(bare.isStorable)
        #expect(bare.isHeuristic)
        #expect(bare.expiresAt == now)
    }

    @Test func explicitLifetimesBeatTheHeuristicAndNoStoreIsNotStored() {
        let lastModified = "Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(HTTPFreshness(headers: ["Cache-Control": "no-cache", "Last-Modified": lastModified], now: now).expiresAt == now)
        #expect(HTTPFreshness(headers: ["Cache-Control": "max-age=30", "Last-Modified": lastModified], now: now).expiresAt
            == now.addingTimeInterval(30))
        let expires = HTTPFreshness(
            headers: ["Expires": "Sun, 06 Nov 1994 09:49:37 GMT", "Date": lastModified, "Last-Modified": lastModified], now: now)
        #expect(expires.expiresAt == now.addingTimeInterval(3600))
        #expect(!expires.isHeuristic)
        #expect(HTTPFreshness(headers: ["Expires": "0"], now: now).expiresAt == now)
        #expect(!HTTPFreshness(headers: ["Cache-Control": "public, no-store"], now: now).isStorable)
        // The first of two conflicting max-ages counts.
        #expect(HTTPFreshness(headers: ["Cache-Control": "max-age=10, max-age=99999"], now: now).expiresAt
            == now.addingTimeInterval(10))
    }

    @Test func anUnreadableMaxAgeIsStaleNotAHeuristicDay() {
        let lastModified = "Sun, 06 Nov 1994 08:49:37 GMT"
        for value in ["max-age=1.5", "max-age=abc", "max-age"] {
            let freshness = HTTPFreshness(headers: ["Cache-Control": value, "Last-Modified": lastModified], now: now)
            #expect(freshness.expiresAt == now, "\(value)")
        }
    }
}
