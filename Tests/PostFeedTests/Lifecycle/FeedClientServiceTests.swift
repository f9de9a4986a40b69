import Foundation
import Logging
import PostFeed
import PostFeedServer
import ServiceLifecycle
import Synchronization
import Testing

/// `FeedClient: Service` (issue 31, item 3): built, it starts no thread; in a real
/// `ServiceGroup`, graceful shutdown lets a transfer under way finish and be stored, and
/// the caches are flushed before the group's `run()` returns.
@Suite("FeedClient as a ServiceLifecycle service")
struct FeedClientServiceTests {
    @Test("no engine thread before run(); a graceful shutdown mid-transfer drains it and flushes the caches")
    func gracefulShutdownDrainsATransfer() async throws {
        // Given a backend that answers every request after 600 ms, and a client built on it
        let slow = FixtureServerConfiguration(faults: FaultInjection(latency: .milliseconds(600)))
        let root = FeedTestSupport.temporaryDirectory("service")
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning(slow) { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root)
            let client = try FeedClient(configuration)
            #expect(!client.http.isStarted, "building the client started the engine thread")

            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: [.init(service: client)], logger: Logger(label: "service-test")))
            let running = Task { try await group.run() }
            let started = await FeedTestSupport.eventually { client.http.isStarted }
            #expect(started, "run() did not start the engine")

            // When a page is requested and, while the server holds it, shutdown begins
            let pageKey = try #require(client.repository.pageKey(forPageNumber: 2))
            let request = Task { () -> Result<Int, RepositoryError> in
                do throws(RepositoryError) {
                    return .success(try await client.repository.page(pageKey).posts.count)
                } catch {
                    return .failure(error)
                }
            }
            let requested = await FeedTestSupport.eventually { FeedTestSupport.listRequests(server) >= 1 }
            #expect(requested)
            await group.triggerGracefulShutdown()
            try await running.value

            // Then the transfer ended with its page, not `.shutdown`, and it is on disk
            let answer = await request.value
            #expect(try answer.get() == 10)
            let storage = try FeedStorage(location: CacheLocation(root: root))
            #expect(storage.pageCache.statistics().entryCount >= 1)
            // And the client is shut down: a new request fails at once
            var failedAfter = false
            do {
                _ = try await client.repository.page(try Self.key(client, 3), cachePolicy: .reload, priority: .normal)
            } catch {
                failedAfter = true
            }
            #expect(failedAfter, "a request after shutdown was answered")
        }
    }

    @Test("cancelling the group's task also drains and ends run()")
    func cancellationEndsRun() async throws {
        try await RunningFixtureServer.withRunning { server in
            let root = FeedTestSupport.temporaryDirectory("service-cancel")
            defer { try? FileManager.default.removeItem(at: root) }
            let client = try FeedClient(try FeedTestSupport.configuration(server: server, cacheRoot: root))
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: [.init(service: client)], logger: Logger(label: "service-test")))
            let running = Task { try await group.run() }
            let started = await FeedTestSupport.eventually { client.http.isStarted }
            #expect(started)
            _ = try await client.repository.page(client.repository.firstPageKey)
            running.cancel()
            _ = await running.result
            #expect(try FeedStorage(location: CacheLocation(root: root)).pageCache.statistics().entryCount >= 1)
        }
    }

    static func key(_ client: FeedClient, _ number: Int) throws(RepositoryError) -> PageKey {
        guard let key = client.repository.pageKey(forPageNumber: number) else {
            throw RepositoryError(.badConfiguration, url: nil, page: nil, message: "no key for page \(number)")
        }
        return key
    }
}
