import Foundation
import PostFeed
import PostFeedRedis
import PostFeedServer
import Testing

/// Issue 31 item 1, past one machine: readers' places in Redis, one key per reader, the
/// generation + merge rule of the State files. Two clients stand for two instances of a
/// service, each with its own cache root.
@Suite("Redis place store: any instance continues any reader's place", .serialized)
struct RedisPlaceStoreTests {
    static func store(_ redis: RedisTestServer) throws -> RedisPlaceStore {
        RedisPlaceStore(configuration: RedisCache.Configuration(
            address: try RedisAddress(parsing: redis.url), namespace: "test:", timeout: .seconds(2)))
    }

    static func client(_ server: RunningFixtureServer, root: URL, store: RedisPlaceStore) throws -> FeedClient {
        try FeedClient(FeedTestSupport.configuration(server: server, cacheRoot: root) { $0.placeStore = store })
    }

    @Test("Two clients on one Redis place store continue each other's readers")
    func instancesContinueEachOther() async throws {
        try await SharedCacheSupport.withSetUp { server, _, redis, root in
            let first = try Self.client(server, root: root.appendingPathComponent("a"), store: try Self.store(redis))
            let second = try Self.client(server, root: root.appendingPathComponent("b"), store: try Self.store(redis))
            let alice = try ReaderID("alice")
            let bob = try ReaderID("bob")
            let a1 = try await first.session(for: alice).next()
            let a2 = try await second.session(for: alice).next()
            let b1 = try await second.session(for: bob).next()
            let a3 = try await first.session(for: alice).next()
            await first.shutdown()
            await second.shutdown()
            #expect(a1.firstPosition == 0)
            #expect(a2.firstPosition == 10, "the second instance continues alice after what the first showed her")
            #expect(b1.firstPosition == 0, "bob's place is his own")
            #expect(a3.firstPosition == 20, "and the first continues after what the second showed")
            // One key per reader, nothing under State/ on either instance.
            #expect(try redis.cli("TYPE", "test:reader:alice") == "hash")
            #expect(try redis.cli("TYPE", "test:reader:bob") == "hash")
            #expect(try redis.cli("HGET", "test:reader:alice", "infinite:rev") == "3")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("a/State").path))
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("b/State").path))
        }
    }

    @Test("A save based on an older generation merges: both instances' seen posts are kept, generation max + 1")
    func staleSaveMerges() async throws {
        try await SharedCacheSupport.withSetUp { server, _, redis, root in
            let store = try Self.store(redis)
            let first = try Self.client(server, root: root.appendingPathComponent("a"), store: store)
            let second = try Self.client(server, root: root.appendingPathComponent("b"), store: try Self.store(redis))
            let reader = try ReaderID("carol")
            let one = first.session(for: reader)
            let two = second.session(for: reader)
            // Both read the (empty) place before either saves.
            try await one.resume()
            try await two.resume()
            let p1 = try await one.next()
            _ = try await one.next()
            let p2 = try await two.next()  // based on generation 0, the record holds 2
            #expect(p2.firstPosition == 0)
            let saved = try #require(await store.loadPlace(.infinite, backendIdentity: first.backend.identity, reader: reader).state)
            #expect(saved.generation == 3)
            #expect(saved.seenPostIDs.count == 20, "the first instance's 20 seen posts survive the stale save")
            #expect(saved.loadedPostIDs.count >= 20, "the longer list is kept")
            let firstSeen = p1.posts.filter { saved.seenPostIDs.contains($0.id) }
            #expect(firstSeen.count == p1.posts.count)
            await first.shutdown()
            await second.shutdown()
        }
    }

    @Test("The popularity order's progress: one record in the reader's key, merged the same way")
    func popularityPlace() async throws {
        try await SharedCacheSupport.withSetUp { _, _, redis, _ in
            let store = try Self.store(redis)
            let reader = try ReaderID("dave")
            var order = PopularityOrderState(backendIdentity: "b")
            order.shownPostIDs = ["1", "2"]
            let written = try await store.savePopularityPlace(order, basedOn: 0, reader: reader)
            #expect(written.generation == 1)
            var stale = PopularityOrderState(backendIdentity: "b")
            stale.shownPostIDs = ["3"]
            let merged = try await store.savePopularityPlace(stale, basedOn: 0, reader: reader)
            #expect(merged.shownPostIDs == ["1", "2", "3"] && merged.generation == 2)
            let loaded = await store.loadPopularityPlace(backendIdentity: "b", reader: reader)
            #expect(loaded.state?.shownPostIDs == ["1", "2", "3"])
            let other = await store.loadPopularityPlace(backendIdentity: "other", reader: reader)
            #expect(other.state?.shownPostIDs == [] && other.problem != nil)
        }
    }

    @Test("Redis down: a save throws one line naming the key, a load says why and starts fresh")
    func redisDown() async throws {
        try await SharedCacheSupport.withSetUp { _, _, redis, _ in
            let store = try Self.store(redis)
            redis.stop()
            let reader = try ReaderID("erin")
            let load = await store.loadPlace(.infinite, backendIdentity: "b", reader: reader)
            #expect(load.state == nil)
            #expect(load.problem?.contains("test:reader:erin") == true)
            let order = PopularityOrderState(backendIdentity: "b")
            var failure: ListStateError?
            do throws(ListStateError) {
                _ = try await store.savePopularityPlace(order, basedOn: 0, reader: reader)
            } catch {
                failure = error
            }
            #expect(failure?.message.contains("test:reader:erin") == true)
        }
    }
}
