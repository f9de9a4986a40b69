import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer
import Testing

@Suite("Resuming and switching list modes through FeedClient")
struct ListStateRestoreTests {
    @Test("With warm caches, restoring the infinite feed needs zero network requests")
    func restoreWithoutNetwork() async throws {
        let root = FeedTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root) {
                $0.infinite.prefetchNextPage = false
                $0.infinite.imagePrefetchCount = 0
            }
            // Given a first run that loaded 3 pages and stopped at post #25
            try await FeedClient.withFeedClient(configuration) { client in
                for _ in 0..<3 { try await client.infinite.loadMore() }
                try await client.saveInfinite(anchorIndex: 24)
            }
            let before = server.totalRequestCount
            // When a second run resumes
            let (report, visible) = try await FeedClient.withFeedClient(configuration) { client in
                let report = try await client.resumeInfinite()
                return (report, try await client.infinite.posts(in: report.anchorIndex..<(report.anchorIndex + 5)))
            }
            // Then it is at post #25 and the server saw nothing
            #expect(report.restored)
            #expect(report.anchorIndex == 24)
            #expect(visible.map(\.id) == Array(25...29))
            #expect(server.totalRequestCount == before)
        }
    }

    @Test("A second run continues after what was loaded")
    func continuesAfterLoaded() async throws {
        let root = FeedTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            let configuration = try FeedTestSupport.configuration(server: server, cacheRoot: root)
            try await FeedClient.withFeedClient(configuration) { client in
                try await client.infinite.loadMore()
                try await client.saveInfinite(anchorIndex: 0)
            }
            let next = try await FeedClient.withFeedClient(configuration) { client in
                _ = try await client.resumeInfinite()
                try await client.infinite.loadMore()
                return try await client.infinite.posts(in: 10..<20)
            }
            #expect(next.map(\.id) == Array(11...20))
        }
    }

    @Test("Infinite at post #37 with page size 10 opens paged mode at page 4, and back")
    func modeSwitchKeepsPlace() async throws {
        try await FeedTestSupport.withClient(pageSize: 10) { client, _, _ in
            for _ in 0..<4 { try await client.infinite.loadMore() }
            try await client.saveInfinite(anchorIndex: 36)
            let anchorID = try #require(await client.infinite.loadedPostIDs.dropFirst(36).first)

            let toPaged = try client.switchMode(to: .paged)
            #expect(toPaged.page == 4)
            #expect(client.currentMode().mode == .paged)
            let paged = try await client.resumePaged()
            #expect(await client.paged.currentPage == 4)
            #expect(await client.paged.posts[paged.anchorIndex].id == anchorID)
            try await client.savePaged(anchorIndexInPage: paged.anchorIndex)

            let toInfinite = try client.switchMode(to: .infinite)
            #expect(toInfinite.anchor?.index == 36)
            #expect(client.currentMode().mode == .infinite)
            let infinite = try await client.resumeInfinite()
            #expect(infinite.anchorIndex == 36)
            #expect(await client.infinite.loadedPostIDs[infinite.anchorIndex] == anchorID)
        }
    }

    @Test("State saved for another backend is reported, left untouched until this run saves, then set aside")
    func otherBackendStateIsSetAside() async throws {
        let root = FeedTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let stateFolder = root.appendingPathComponent("State")
        let file = stateFolder.appendingPathComponent("infinite-scroll-state.json")
        try await RunningFixtureServer.withRunning { server in
            // Given state saved for the page-number backend
            try await FeedClient.withFeedClient(try FeedTestSupport.configuration(server: server, cacheRoot: root)) { client in
                try await client.infinite.loadMore()
                try await client.saveInfinite(anchorIndex: 3)
            }
            let original = try Data(contentsOf: file)
            let other = try FeedTestSupport.configuration(server: server, cacheRoot: root, preset: "postfeed-cursor")

            // When another backend resumes: a fresh start, one notice, the file untouched
            let report = try await FeedClient.withFeedClient(other) { client in try await client.resumeInfinite() }
            #expect(report.restored == false)
            #expect(report.notices.count == 1)
            #expect(report.notices.first?.contains("postfeed-cursor") == true)
            #expect(try Data(contentsOf: file) == original)

            // When that backend saves its own place: the old file is kept aside, byte for byte
            try await FeedClient.withFeedClient(other) { client in
                _ = try await client.resumeInfinite()
                try await client.infinite.loadMore()
                try await client.saveInfinite(anchorIndex: 0)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: stateFolder.path)
            let corruptCopy = names.first { $0.hasPrefix("infinite-scroll-state.json.corrupt-") }
            let aside = try #require(corruptCopy, "\(names)")
            #expect(try Data(contentsOf: stateFolder.appendingPathComponent(aside)) == original)
            #expect(try Data(contentsOf: file) != original)
        }
    }

    @Test("Offline, pages and images come from the caches; an uncached page is a clear error")
    func offline() async throws {
        let root = FeedTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            // No background prefetches: the request count below must not move on its own.
            let online = try FeedTestSupport.configuration(server: server, cacheRoot: root) {
                $0.infinite.prefetchNextPage = false
                $0.infinite.imagePrefetchCount = 0
            }
            let firstPost = try await FeedClient.withFeedClient(online) { client in
                try await client.infinite.loadMore()
                let withImage = await client.infinite.posts.first { $0.imageURL != nil }
                let post = try #require(withImage)
                _ = await client.image(for: post)
                try await client.saveInfinite(anchorIndex: 0)
                return post
            }
            let before = server.totalRequestCount
            var offline = online
            offline.offline = true
            try await FeedClient.withFeedClient(offline) { client in
                _ = try await client.resumeInfinite()
                #expect(try await client.infinite.posts(in: 0..<10).count == 10)
                let image = try #require(await client.image(for: firstPost))
                #expect(image.response?.data.isEmpty == false)
                let error = await #expect(throws: RepositoryError.self) { try await client.infinite.loadMore() }
                #expect(error?.code == .notCached)
            }
            #expect(server.totalRequestCount == before)
        }
    }

    @Test("A backend with a fixed identity finds its cached pages and images at another address")
    func fixedIdentityCachesSurviveAnotherPort() async throws {
        let root = FeedTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try await RunningFixtureServer.withRunning { server in
            // Given page 1 and an image cached through the server's port, under a fixed identity
            let online = try FeedTestSupport.configuration(server: server, cacheRoot: root) {
                $0.backend.fixedIdentity = "fixtures"
                $0.infinite.prefetchNextPage = false
                $0.infinite.imagePrefetchCount = 0
            }
            let postID = try await FeedClient.withFeedClient(online) { client in
                try await client.infinite.loadMore()
                let withImage = await client.infinite.posts.first { $0.imageURL != nil }
                let post = try #require(withImage)
                _ = await client.image(for: post)
                try await client.saveInfinite(anchorIndex: 0)
                return post.id
            }

            // When the same backend is at another port (the built-in one when its usual port
            // is taken), read offline
            var moved = online
            moved.backend.baseURL = try #require(URL(string: "http://127.0.0.1:1"))
            moved.offline = true
            try await FeedClient.withFeedClient(moved) { client in
                // Then both caches answer
                let resumed = try await client.resumeInfinite()
                #expect(resumed.restored)
                let posts = try await client.infinite.posts(in: 0..<10)
                #expect(posts.count == 10)
                let savedPost = posts.first { $0.id == postID }
                let post = try #require(savedPost)
                let image = try #require(await client.image(for: post))
                #expect(image.url?.absoluteString.hasPrefix("http://127.0.0.1:1/") == true)
                #expect(image.response?.data.isEmpty == false, "\(String(describing: image.error))")
            }
        }
    }
}
