import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("FaultInjection")
struct FaultInjectionTests {
    @Test("off by default: nothing fails")
    func offByDefault() async throws {
        #expect(!FaultInjection.none.isEnabled)
        try await withFixtureServer { _, client throws in
            for page in 1...5 { #expect(try await client.get("/api/posts?page=\(page)").status == 200) }
        }
    }

    @Test("failFirst fails the first N requests with the chosen status and Retry-After, then succeeds")
    func failFirstServer() async throws {
        try await withFixtureServer({
            $0.faults.failFirst = 2
            $0.faults.failFirstFault = .status(503, retryAfter: 3)
        }) { _, client throws in
            let first = try await client.get("/api/posts?page=1")
            let second = try await client.get("/images/img-001.jpg")
            let third = try await client.get("/api/posts?page=1")
            #expect(first.status == 503)
            #expect(first.header("Retry-After") == "3")
            #expect(try first.decode(APIErrorBody.self).error.status == 503)
            #expect(second.status == 503)
            #expect(third.status == 200)
        }
    }

    @Test("failFirst per path fails the first N requests to each path")
    func failFirstEachPath() async throws {
        try await withFixtureServer({
            $0.faults.failFirst = 1
            $0.faults.failFirstFault = .status(500)
            $0.faults.failFirstScope = .eachPath
        }) { _, client throws in
            #expect(try await client.get("/api/posts/1").status == 500)
            #expect(try await client.get("/api/posts/1").status == 200)
            #expect(try await client.get("/api/posts/2").status == 500)
            #expect(try await client.get("/api/posts/2").status == 200)
            #expect(try await client.get("/api/posts?page=2").status == 500)
            #expect(try await client.get("/api/posts?page=3").status == 200)  // same path, query ignored
        }
    }

    @Test("failFirst can inject each connection-level fault", arguments: [
        FaultInjection.Fault.truncatedBody, .connectionReset, .stalledBody,
    ])
    func failFirstConnectionFaults(fault: FaultInjection.Fault) async throws {
        try await withFixtureServer({
            $0.faults.failFirst = 1
            $0.faults.failFirstFault = fault
            $0.faults.stallDuration = .seconds(60)
        }) { _, client throws in
            // Silence for 2 s counts as a stall; every other outcome arrives long before.
            let outcome = await client.send("GET", "/api/posts?page=1", timeout: .seconds(2))
            let incomplete = try #require(outcome.incomplete)
            switch fault {
            case .truncatedBody:
                #expect(incomplete.ending == .closed)
                let contentLength = incomplete.head?.header("Content-Length").flatMap { Int($0) }
                let promised = try #require(contentLength)
                #expect(incomplete.received.count == promised / 2)
            case .connectionReset:
                #expect(incomplete.ending == .reset)
                #expect(incomplete.head == nil)
            case .stalledBody:
                #expect(incomplete.ending == .timedOut)
                #expect(incomplete.head?.status == 200)
                #expect(incomplete.received.count == 16)
            case .status:
                Issue.record("not a connection fault")
            }
            // Then the next request is served normally.
            #expect(try await client.get("/api/posts?page=1").status == 200)
        }
    }

    @Test("a truncated image keeps its real headers and sends half of it")
    func truncatedImage() async throws {
        let size = try Data(contentsOf: FixtureLocator.fixturesDirectory().appendingPathComponent("images/img-003.png")).count
        try await withFixtureServer({ $0.faults.truncationShare = 1 }) { _, client throws in
            let incomplete = try #require(await client.send("GET", "/images/img-003.png").incomplete)
            #expect(incomplete.head?.header("Content-Length") == String(size))
            #expect(incomplete.head?.header("Content-Type") == "image/png")
            #expect(incomplete.received.count == size / 2)
            #expect(incomplete.ending == .closed)
        }
    }

    @Test("random shares of 1 always inject their fault", arguments: [
        ("server", 500, false), ("unavailable", 503, true), ("rateLimit", 429, true),
    ])
    func statusShares(kind: String, status: Int, hasRetryAfter: Bool) async throws {
        try await withFixtureServer({
            switch kind {
            case "server": $0.faults.serverErrorShare = 1
            case "unavailable": $0.faults.unavailableShare = 1
            default: $0.faults.rateLimitShare = 1
            }
            $0.faults.retryAfterSeconds = 7
        }) { _, client throws in
            for _ in 0..<3 {
                let response = try await client.get("/api/posts?page=1")
                #expect(response.status == status)
                #expect((response.header("Retry-After") == "7") == hasRetryAfter)
            }
        }
    }

    @Test("reset and stall shares of 1 always inject their fault")
    func connectionShares() async throws {
        try await withFixtureServer({ $0.faults.resetShare = 1 }) { _, client throws in
            #expect(await client.send("GET", "/api/posts/1").incomplete?.ending == .reset)
        }
        try await withFixtureServer({
            $0.faults.stallShare = 1
            $0.faults.stallDuration = .seconds(60)
        }) { _, client throws in
            let incomplete = await client.send("GET", "/api/posts/1", timeout: .seconds(2)).incomplete
            #expect(incomplete?.ending == .timedOut)
            #expect(incomplete?.head?.status == 200)
        }
    }

    @Test("a stall ends with a close after stallDuration")
    func stallEnds() async throws {
        try await withFixtureServer({
            $0.faults.stallShare = 1
            $0.faults.stallDuration = .milliseconds(200)
        }) { _, client throws in
            let incomplete = await client.send("GET", "/api/posts/1", timeout: .seconds(5)).incomplete
            #expect(incomplete?.ending == .closed)
        }
    }

    @Test("the same seed gives the same sequence of faults; another seed a different one")
    func seededSequence() async throws {
        func statuses(seed: UInt64) async throws -> [Int] {
            try await withFixtureServer({
                $0.faults.serverErrorShare = 0.25
                $0.faults.unavailableShare = 0.25
                $0.faults.seed = seed
            }) { _, client throws in
                var statuses: [Int] = []
                for _ in 0..<40 { statuses.append(try await client.get("/api/posts/1").status) }
                return statuses
            }
        }
        let first = try await statuses(seed: 1)
        let again = try await statuses(seed: 1)
        let other = try await statuses(seed: 2)
        #expect(first == again)
        #expect(first != other)
        #expect(Set(first) == [200, 500, 503])
        let failures = first.filter { $0 != 200 }.count
        #expect((8...32).contains(failures))  // about half of 40
    }

    @Test("latency delays every response by at least the configured amount")
    func latency() async throws {
        try await withFixtureServer({ $0.faults.latency = .milliseconds(300) }) { _, client throws in
            let clock = ContinuousClock()
            let start = clock.now
            #expect(try await client.get("/api/posts/1").status == 200)
            #expect(clock.now - start >= .milliseconds(300))
        }
    }

    @Test("faults never touch the /test routes")
    func testRoutesUntouched() async throws {
        try await withFixtureServer({
            $0.enablesTestRoutes = true
            $0.faults.serverErrorShare = 1
        }) { _, client throws in
            #expect(try await client.get("/test/status/200").status == 200)
            #expect(try await client.get("/api/posts/1").status == 500)
        }
    }

    @Test("an impossible plan is refused before the server starts", arguments: [
        FaultInjection(serverErrorShare: 1.5),
        FaultInjection(serverErrorShare: 0.6, rateLimitShare: 0.6),
        FaultInjection(resetShare: -0.1),
        FaultInjection(failFirst: -1),
        FaultInjection(failFirstFault: .status(42)),
    ])
    func invalidPlans(plan: FaultInjection) async throws {
        #expect(!plan.problems.isEmpty)
        var configuration = FixtureServerConfiguration()
        configuration.faults = plan
        await #expect(throws: FixtureServerError.self) {
            try await RunningFixtureServer.withRunning(configuration) { _ in }
        }
    }
}
