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
}
