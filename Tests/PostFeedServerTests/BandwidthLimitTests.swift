import Foundation
import PostFeedServer
import Testing

@Suite("FaultInjection bandwidth limits")
struct BandwidthLimitTests {
    @Test("a limited path's body arrives whole, no faster than the limit; other paths at once")
    func limitedPathIsSlow() async throws {
        let path = "/images/img-004.jpg"  // 13,815 bytes
        try await withFixtureServer({ $0.faults.bandwidthLimits = [path: 8_192] }) { _, client throws in
            let clock = ContinuousClock()
            let started = clock.now
            let fast = try await client.get("/images/img-006.png")
            let fastAfter = clock.now - started
            let slow = try await client.get(path)
            let slowAfter = clock.now - started - fastAfter

            #expect(fast.status == 200 && slow.status == 200)
            #expect(slow.body.count == 13_815)
            #expect(slow.body.prefix(3) == [0xFF, 0xD8, 0xFF], "a JPEG, unchanged")
            // 13,815 bytes at 8 KiB/s in 819-byte slices every 100 ms: 16 slices, ≥ 1.5 s
            #expect(slowAfter >= .milliseconds(1_500), "took \(slowAfter)")
            #expect(fastAfter < slowAfter)
        }
    }

    @Test("a limit below 10 bytes a second is a problem of the plan")
    func tinyLimitIsAProblem() {
        let plan = FaultInjection(bandwidthLimits: ["/images/img-001.jpg": 5])
        #expect(plan.isEnabled)
        let namesTheLimit = plan.problems.contains { $0.contains("bandwidth limit 5 bytes/s for /images/img-001.jpg") }
        #expect(namesTheLimit, "\(plan.problems)")
        #expect(FaultInjection(bandwidthLimits: ["/images/img-001.jpg": 10]).problems.isEmpty)
    }
}
