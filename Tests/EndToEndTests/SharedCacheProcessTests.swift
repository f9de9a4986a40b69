import Foundation
import PostFeedServer
import Testing

/// The shared cache tier across real `postfeed` processes, each on its own cache root,
/// through one real `redis-server`.
@Suite("--shared-cache across postfeed processes", .serialized)
struct SharedCacheProcessTests {
    static let imagePath = "/images/img-001.jpg"

    @Test("A second process on a fresh cache root gets post 1's image from Redis and says (shared); no origin request")
    func secondProcessSaysShared() async throws {
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        let first = try Sandbox("shared-first")
        let second = try Sandbox("shared-second")
        try await withFixtureServer { server in
            let fetched = try await first.run(["show", "1", "--shared-cache", redis.url], against: server)
            #expect(fetched.succeeded, "\(fetched)")
            let fromNetwork = fetched.outputLines.contains { $0.hasSuffix("(network)") }
            #expect(fromNetwork, "\(fetched)")
            #expect(server.requestCount(path: Self.imagePath) == 1)

            let shared = try await second.run(["show", "1", "--shared-cache", redis.url], against: server)
            #expect(shared.succeeded, "\(shared)")
            let imageLine = shared.outputLines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("image ") }
            #expect(imageLine?.hasSuffix("(shared)") == true, "\(shared)")
            #expect(server.requestCount(path: Self.imagePath) == 1, "the second process read Redis, not the origin")

            let third = try Sandbox("shared-json")
            let json = try await third.run(["show", "1", "--json", "--shared-cache", redis.url], against: server)
            #expect(json.standardOutput.contains("\"source\" : \"shared\""), "\(json)")
        }
    }

    @Test("kill -9 of the process holding the fetch lease: the next process waits for the lease to expire, then fetches itself, whole")
    func killedLeaseholder() async throws {
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        let original = try Data(contentsOf: PostfeedProcess.packageRoot.appendingPathComponent("Fixtures" + Self.imagePath))
        // The origin sends post 1's image at 40 KB/s: the first process is still reading it,
        // holding the lease, when it is killed.
        let faults = FaultInjection(bandwidthLimits: [Self.imagePath: 40_000])
        let holder = try Sandbox("shared-holder")
        let waiter = try Sandbox("shared-waiter")
        try await withFixtureServer(faults: faults) { server in
            let arguments = ["image", "1", "--shared-cache", redis.url, "--base-url", server.baseURL.absoluteString]
            let first = try PostfeedProcess.start(
                arguments + ["--output", "holder.jpg", "--cache-dir", holder.cacheRoot.path], in: holder.directory)
            // The lease is taken and the transfer has started: kill -9.
            var deadToken = ""
            var polls = 0
            while (deadToken.isEmpty || server.requestCount(path: Self.imagePath) == 0), first.isRunning, polls < 1_500 {
                let leases = try redis.cli("KEYS", "postfeed:images:lease:*")
                if let lease = leases.split(separator: "\n").first { deadToken = try redis.cli("GET", String(lease)) }
                try await Task.sleep(for: .milliseconds(20))
                polls += 1
            }
            try #require(!deadToken.isEmpty, "the first process never took the lease")
            first.send(SIGKILL)
            let killed = await first.waitForExit()
            #expect(!killed.exitedNormally, "\(killed)")
            #expect(server.requestCount(path: Self.imagePath) == 1)
            let leaseKey = try #require(try redis.cli("KEYS", "postfeed:images:lease:*").split(separator: "\n").first.map(String.init))
            #expect(try redis.cli("GET", leaseKey) == deadToken, "the dead holder's lease outlives it")

            // A second process misses the same image while the dead holder's lease lasts.
            let second = try PostfeedProcess.start(
                arguments + ["--output", "waiter.jpg", "--cache-dir", waiter.cacheRoot.path], in: waiter.directory)
            var fetchedUnderDeadLease = false
            while second.isRunning {
                let requests = server.requestCount(path: Self.imagePath)
                if requests > 1, (try? redis.cli("GET", leaseKey)) == deadToken { fetchedUnderDeadLease = true }
                try await Task.sleep(for: .milliseconds(20))
            }
            let run = await second.waitForExit()
            #expect(run.succeeded, "\(run)")
            #expect(!fetchedUnderDeadLease, "the waiter fetched while the dead holder's lease was still there")
            #expect(server.requestCount(path: Self.imagePath) == 2, "the waiter fetched once, itself, after the lease expired")
            #expect(try Data(contentsOf: waiter.directory.appendingPathComponent("waiter.jpg")) == original, "whole, not corrupt")
            #expect(try redis.cli("EXISTS", leaseKey) == "0", "the waiter released its own lease")

            // What it shared is whole too: a third process reads it from Redis.
            let third = try Sandbox("shared-third")
            let fromRedis = try await third.run(["image", "1", "--shared-cache", redis.url, "--output", "third.jpg"], against: server)
            #expect(fromRedis.succeeded, "\(fromRedis)")
            #expect(try Data(contentsOf: third.directory.appendingPathComponent("third.jpg")) == original)
            #expect(server.requestCount(path: Self.imagePath) == 2)
        }
    }
}

/// Pages through the shared tier across processes.
@Suite("--shared-cache: pages across postfeed processes", .serialized)
struct SharedPageProcessTests {
    @Test("A second process on a fresh cache root reads page 1 from Redis: no origin request for the page; --verbose counts the shared hit")
    func secondProcessReadsPageFromRedis() async throws {
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        let first = try Sandbox("shared-page-first")
        let second = try Sandbox("shared-page-second")
        try await withFixtureServer { server in
            let fetched = try await first.run(["page", "1", "--shared-cache", redis.url], against: server)
            #expect(fetched.succeeded, "\(fetched)")
            let afterFirst = server.requestCount(path: "/api/posts")
            #expect(afterFirst >= 1)
            let pageKeys = try redis.cli("KEYS", "postfeed:pages:*")
            #expect(!pageKeys.isEmpty, "the pages were shared")

            let shared = try await second.run(["page", "1", "--verbose", "--shared-cache", redis.url], against: server)
            #expect(shared.succeeded, "\(shared)")
            #expect(shared.outputLines.count == fetched.outputLines.count, "the same page")
            #expect(server.requestCount(path: "/api/posts") == afterFirst, "the second process read Redis, not the origin")
            let summary = shared.standardError.split(separator: "\n").first { $0.contains("cache:") }.map(String.init) ?? ""
            #expect(summary.contains("shared ") && !summary.contains("shared 0 hits"), "\(shared)")
        }
    }
}
