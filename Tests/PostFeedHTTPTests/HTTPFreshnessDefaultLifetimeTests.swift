import Foundation
import Testing

@testable import PostFeedHTTP

/// Issue 29, item 4: a default lifetime (images) for responses that give none.
@Suite struct HTTPFreshnessDefaultLifetimeTests {
    private let now = Date(timeIntervalSince1970: 1_760_000_000)
    private let week: TimeInterval = 7 * 86_400

    @Test func withoutAnyCachingHeaderTheDefaultLifetimeApplies() {
        let freshness = HTTPFreshness(headers: ["Content-Type": "image/png"], now: now, defaultLifetime: week)
        #expect(freshness.expiresAt == now.addingTimeInterval(week))
        #expect(freshness.isStorable)
        #expect(freshness.isHeuristic)
    }

    @Test func theDefaultLifetimeReplacesTheLastModifiedHeuristic() {
        let headers: HTTPHeaders = ["Last-Modified": "Wed, 01 May 2024 10:00:00 GMT", "ETag": "\"a\""]
        let image = HTTPFreshness(headers: headers, now: now, defaultLifetime: week)
        let page = HTTPFreshness(headers: headers, now: now)
        #expect(image.expiresAt == now.addingTimeInterval(week))
        #expect(page.expiresAt == now.addingTimeInterval(HTTPFreshness.heuristicLimit))
        #expect(image.etag == "\"a\"")
    }

    @Test func explicitHeadersStillWin() {
        let maxAge = HTTPFreshness(headers: ["Cache-Control": "max-age=60"], now: now, defaultLifetime: week)
        #expect(maxAge.expiresAt == now.addingTimeInterval(60))
        let noCache = HTTPFreshness(headers: ["Cache-Control": "no-cache"], now: now, defaultLifetime: week)
        #expect(noCache.expiresAt == now)
        let noStore = HTTPFreshness(headers: ["Cache-Control": "no-store"], now: now, defaultLifetime: week)
        #expect(noStore.isStorable == false)
        let expires = HTTPFreshness(
            headers: ["Expires": "Thu, 09 Oct 2025 08:54:20 GMT", "Date": "Thu, 09 Oct 2025 08:53:20 GMT"], now: now,
            defaultLifetime: week)
        #expect(expires.expiresAt == now.addingTimeInterval(60))
    }

    @Test func withoutADefaultNothingToGoOnIsStillExpiredAtOnce() {
        let page = HTTPFreshness(headers: ["Content-Type": "application/json"], now: now)
        #expect(page.expiresAt == now)
    }
}
