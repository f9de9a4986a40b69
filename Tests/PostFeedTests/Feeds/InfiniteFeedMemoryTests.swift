import Foundation
@testable import PostFeed
import PostFeedServer
import Testing

/// What the infinite feed keeps per page after the window moved on: the key and the ids,
/// packed; dedup ids as ranges. Pages scrolled away come back from the page cache.
@Suite("InfiniteFeed memory: window, packed segments, known ids")
struct InfiniteFeedMemoryTests {
    @Test("Over every page the window stays at maximumResidentPages and each page keeps about a byte an id")
    func segmentsStayCompact() async throws {
        try await FeedTestSupport.withClient(pageSize: 5, configure: {
            $0.infinite.maximumResidentPages = 3
            $0.infinite.prefetchNextPage = false
            $0.infinite.imagePrefetchCount = 0
        }) { client, _, _ in
            let feed = client.infinite
            var index = 0
            while true {
                let (more, count) = (await feed.hasMore, await feed.count)
                guard more || index < count else { break }
                try await feed.loadMoreIfNeeded(visibleIndex: index + 4)
                _ = try await feed.posts(in: index..<(index + 5))
                #expect(await feed.residentPageCount <= 3)
                index += 5
            }
            let segments = await feed.segments
            #expect(segments.count == 50)
            #expect(await feed.count == 247)
            #expect(segments.filter(\.isResident).count <= 3)
            // Fixture ids are 1…247 in order: a byte an id (two for a page's first id past
            // 63, packed from 0), no separate listed ids.
            #expect(segments.map(\.idByteCount).reduce(0, +) <= 247 + 50)
            let hideNone = segments.allSatisfy { $0.hidesNone }
            #expect(hideNone)
            #expect(await feed.loadedPostIDs == Array(1...247))
            // Dedup ids: one range for the whole feed.
            #expect(await feed.knownIDs.all.ranges == [1...247])
        }
    }

    @Test("Scrolling back re-reads every evicted page from the page cache, same posts, no request")
    func scrollBackReadsThePageCache() async throws {
        try await FeedTestSupport.withClient(pageSize: 10, configure: {
            $0.infinite.maximumResidentPages = 2
            $0.infinite.prefetchNextPage = false
            $0.infinite.imagePrefetchCount = 0
        }) { client, server, _ in
            let feed = client.infinite
            var firstSeen: [Int: [Post]] = [:]
            var index = 0
            while true {
                let (more, count) = (await feed.hasMore, await feed.count)
                guard more || index < count else { break }
                try await feed.loadMoreIfNeeded(visibleIndex: index + 9)
                firstSeen[index] = try await feed.posts(in: index..<(index + 10))
                #expect(firstSeen[index]?.isEmpty == false)
                index += 10
            }
            let requests = FeedTestSupport.listRequests(server)
            for start in stride(from: index - 10, through: 0, by: -10) {
                let again = try await feed.posts(in: start..<(start + 10))
                let expected = firstSeen[start] ?? []
                #expect(!expected.isEmpty)
                #expect(again == expected, "posts \(start)…\(start + 9) read back")
                #expect(await feed.residentPageCount <= 2)
            }
            #expect(FeedTestSupport.listRequests(server) == requests, "evicted pages must come from the page cache")
            #expect(await feed.index(ofPostID: 1) == 0)
            #expect(await feed.index(ofPostID: 247) == 246)
            #expect(await feed.listPositions(in: 240..<247) == Array(240..<247))
        }
    }

    @Test("Packed ids round-trip any Int, consecutive ids take a byte each")
    func packedIDs() {
        let cases: [[PostID]] = [
            [], [0], [1, 2, 3], [981, 980, 979], Array([Int.max, Int.min, 0, Int.max, -1, Int.min]),
            [7, 1_000_000_000_000, 3, -5], Array((1...500).map { $0 * 37 % 1013 }),
        ]
        for ids in cases {
            let packed = PackedPostIDs(ids)
            #expect(packed.ids == ids)
            #expect(packed.count == ids.count)
            #expect(packed.firstIndex(of: ids.last ?? 42) == ids.firstIndex(of: ids.last ?? 42))
        }
        #expect(PackedPostIDs(Array(1_000_000..<1_000_020)).byteCount == 3 + 19, "the first id takes 3 bytes, the rest 1")
        #expect(PackedPostIDs(Array((1..<21).reversed())).byteCount == 20)
    }

    @Test("Known ids merge into ranges a batch at a time; removal splits a range")
    func knownIDs() {
        var known = KnownPostIDs()
        for page in 0..<1_000 {
            // Newest first, as feeds list them.
            known.formUnion(Array((0..<20).map { 100_000 - page * 20 - $0 }))
        }
        #expect(known.contains(100_000))
        #expect(known.contains(80_001))
        #expect(!known.contains(80_000))
        #expect(known.all.ranges == [80_001...100_000])
        known.subtract([90_000])
        #expect(!known.contains(90_000))
        #expect(known.all.ranges == [80_001...89_999, 90_001...100_000])
        var set: PostIDSet = [1, 2, 3]
        set.remove(1)
        set.remove(3)
        set.remove(9)
        #expect(set.ranges == [2...2])
        set.remove(2)
        #expect(set.isEmpty)
    }
}
