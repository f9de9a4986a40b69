import Foundation
import PostFeed
import PostFeedCache
import PostFeedHTTP
import PostFeedServer
import Testing

/// Each preset against the fixture server speaking that convention, over the real data:
/// every post seen exactly once, the end found by the convention's own signal.
@Suite("Presets walk real servers to the end")
struct PresetWalkTests {
    func walk(
        flavor: BackendFlavor, preset: String, pageSize: Int
    ) async throws -> (pages: [Page], requests: [RecordedRequest]) {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration(flavor: flavor)) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let repository = try HTTPPostRepository(
                        backend: try BackendDescription.preset(preset, baseURL: server.baseURL), pageSize: pageSize,
                        loader: client, pageCache: try DiskCache(directory: folder))
                    let pages = try await walkToEnd(repository)
                    return (pages, server.recordedRequests)
                }
            }
        }
    }

    @Test("postfeed: 247 fixture posts in 13 pages of 20, ended by hasMore:false and the Link header")
    func postfeed() async throws {
        let (pages, requests) = try await walk(flavor: .postFeed, preset: "postfeed", pageSize: 20)
        let ids = pages.flatMap { $0.posts.map(\.id) }
        #expect(ids == (try PeerData.fixturePostIDs()))
        #expect(Set(ids).count == 247)
        #expect(pages.count == 13)
        let oneToThirteen = (1...13).map { Optional($0) }
        #expect(pages.map(\.number) == oneToThirteen)
        let totals = pages.map { "\(String(describing: $0.totalCount))/\(String(describing: $0.totalPages))" }
        let allSayTotal = pages.allSatisfy { $0.totalCount == 247 && $0.totalPages == 13 }
        #expect(allSayTotal, "count/pages: \(totals)")
        #expect(pages.last?.posts.count == 7)
        #expect(requests.count == 13, "no request past the last page")
        let allListRequests = requests.allSatisfy { $0.path == "/api/posts" }
        #expect(allListRequests, "\(requests)")
        let imageURLs = pages.flatMap { $0.posts.compactMap(\.imageURL) }
        #expect(imageURLs.count == 243, "four fixture posts have no image")
        let allAbsolute = imageURLs.allSatisfy { $0.hasPrefix("http://127.0.0.1:") }
        #expect(allAbsolute, "relative image URLs come back absolute: \(imageURLs)")
    }

    @Test("postfeed-cursor: the same 247 posts by nextCursor, numbered by walking")
    func postfeedCursor() async throws {
        let (pages, requests) = try await walk(flavor: .postFeed, preset: "postfeed-cursor", pageSize: 25)
        let ids = pages.flatMap { $0.posts.map(\.id) }
        #expect(ids == (try PeerData.fixturePostIDs()))
        #expect(pages.count == 10)
        let oneToTen = (1...10).map { Optional($0) }
        #expect(pages.map(\.number) == oneToTen)
        #expect(pages.first?.key == .cursor(nil))
        #expect(requests.count == 10)
        let laterAskByCursor = requests.dropFirst().allSatisfy { $0.query?.contains("cursor=") == true }
        #expect(laterAskByCursor, "\(requests)")
    }

    @Test("json-server 0.17: 100 JSONPlaceholder posts, ended by the Link header without next")
    func jsonServer() async throws {
        let (pages, requests) = try await walk(flavor: .jsonServer017, preset: "json-server", pageSize: 10)
        let ids = pages.flatMap { $0.posts.map(\.id) }
        #expect(ids == (try PeerData.jsonPlaceholderPostIDs()))
        #expect(Set(ids).count == 100)
        #expect(pages.count == 10)
        let totals = pages.map(\.totalCount)
        let allSayHundred = pages.allSatisfy { $0.totalCount == 100 }
        #expect(allSayHundred, "\(totals)")
        #expect(requests.count == 10, "the last full page ends the list: no empty page is asked for")
        #expect(pages.first?.posts.first?.author == "user 1")
    }

    @Test("json-server 0.17 with an uneven page size: the short last page")
    func jsonServerUneven() async throws {
        let (pages, _) = try await walk(flavor: .jsonServer017, preset: "json-server", pageSize: 30)
        let ids = pages.flatMap { $0.posts.map(\.id) }
        #expect(ids == (try PeerData.jsonPlaceholderPostIDs()))
        #expect(pages.map(\.posts.count) == [30, 30, 30, 10])
    }

    @Test("json-server 1.x: string ids, ended by next:null")
    func jsonServerV1() async throws {
        let (pages, requests) = try await walk(flavor: .jsonServerV1, preset: "json-server-v1", pageSize: 7)
        let ids = pages.flatMap { $0.posts.map(\.id) }
        #expect(ids == (try PeerData.jsonPlaceholderPostIDs()))
        #expect(pages.count == 15)
        #expect(pages.last?.totalPages == 15)
        #expect(requests.count == 15, "the clamped page past the end is never asked for")
    }

    @Test("DummyJSON: 251 posts by skip/limit, ended by the total")
    func dummyJSON() async throws {
        let (pages, requests) = try await walk(flavor: .dummyJSON, preset: "dummyjson", pageSize: 50)
        let ids = pages.flatMap { $0.posts.map(\.id) }
        #expect(ids == (try PeerData.dummyJSONPostIDs()))
        #expect(Set(ids).count == 251)
        let offsetKeys = [0, 50, 100, 150, 200, 250].map { PageKey.offset($0) }
        #expect(pages.map(\.key) == offsetKeys)
        #expect(pages.last?.posts.count == 1)
        #expect(requests.count == 6)
        let posts = pages.flatMap(\.posts)
        let odd = posts.filter { $0.imageURL != nil || $0.author?.hasPrefix("user ") != true }
        #expect(odd.isEmpty, "posts with an image or without a 'user …' author: \(odd)")
    }

    @Test("GitHub-style link pagination from a config file, against the fixture's Link header")
    func linkStyle() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            try await withTestClient { client in
                try await withTemporaryPageCache { folder in
                    let config = """
                        {"name":"fixture-links","baseURL":"\(server.baseURL.absoluteString)","postsPath":"/api/posts",
                         "pagination":{"style":"link","limit":"limit"},"items":"posts",
                         "total":{"header":"X-Total-Count"},"end":["linkWithoutNext"]}
                        """
                    let backend = try BackendDescription(configuration: Data(config.utf8))
                    let repository = try HTTPPostRepository(
                        backend: backend, pageSize: 40, loader: client, pageCache: try DiskCache(directory: folder))
                    let pages = try await walkToEnd(repository)
                    let ids = pages.flatMap { $0.posts.map(\.id) }
                    #expect(ids == (try PeerData.fixturePostIDs()))
                    #expect(pages.count == 7)
                    let oneToSeven = (1...7).map { Optional($0) }
                    #expect(pages.map(\.number) == oneToSeven)
                    #expect(server.requestCount(path: "/api/posts") == 7)
                    #expect(repository.pageKey(forPageNumber: 2) == nil, "link pages must be walked")
                }
            }
        }
    }
}
