import Foundation
import Logging

/// One reader's session over a shared ``FeedClient``: that reader's place in the infinite
/// list, kept in the client's ``ReaderPlaceStore`` under the reader's ``ReaderID``.
///
/// Many sessions share the client's HTTP engine, page and image caches (memory and disk),
/// shared tier and single-flight transfers; each has its own list of loaded posts, its own
/// place (``shownLength``: how far the reader was *shown*, in the backend's order) and its
/// own seen posts. Two readers never see each other's place.
///
/// The place is read from the store once, by the first ``resume()`` or ``next()``, and
/// saved after every ``next()`` by read-modify-write on the generation it was read at:
/// another instance continuing the same reader in between is merged with, not erased.
///
/// ```swift
/// import Foundation
/// import PostFeed
///
/// func nextPage(for user: String, client: FeedClient) async throws -> [String] {
///     let session = client.session(for: try ReaderID(user))
///     let page = try await session.next()
///     return page.posts.map(\.title)
/// }
/// ```
public actor FeedSession {
    /// Whose place this is.
    public nonisolated let reader: ReaderID
    /// The engine, caches and store this session shares with every other.
    public nonisolated let client: FeedClient
    /// This reader's list of loaded posts (the client's configuration, its own pages).
    let feed: InfiniteFeed
    /// The record's generation this session last loaded or saved.
    private var generation = 0
    /// How far into the backend's list the reader was shown (``ListState/shownLength``).
    public private(set) var shownLength = 0
    /// The posts this reader was shown, in this session and before.
    public private(set) var seenPostIDs = PostIDSet()
    /// The feed index of the first post of the last page ``next()`` returned: in view.
    private var anchorIndex = 0
    private var resumed = false
    /// A ``resume()``, ``next()`` or ``save()`` is under way: the next waits its turn, so
    /// two calls at once never hand over the same posts (an actor lets calls interleave
    /// at every `await`).
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(client: FeedClient, reader: ReaderID) {
        self.client = client
        self.reader = reader
        var logger = client.logger
        logger[metadataKey: "reader"] = "\(reader)"
        // No background work that would outlive the request a session answers: no page or
        // image is fetched ahead (the client's shutdown does not know the session's feed).
        var configuration = client.configuration.infinite
        configuration.prefetchNextPage = false
        configuration.imagePrefetchCount = 0
        feed = InfiniteFeed(
            repository: client.repository, images: client.images, configuration: configuration,
            logger: FeedClient.logger(logger, for: "session"))
    }

    /// What ``next()`` returned.
    public struct Page: Sendable {
        /// The posts shown, in the backend's order; empty at the end of the feed.
        public var posts: [Post]
        /// The 0-based backend position of the first of them.
        public var firstPosition: Int
        /// No post follows them now.
        public var endReached: Bool
        /// One line each: a saved place that could not be used, another instance's place
        /// replaced, a save that failed (the posts were shown; the place was not kept).
        public var notices: [String]
        /// Why the place was not saved, when it was not.
        public var saveError: ListStateError?
    }

    /// Reads the reader's place from the store and puts the list back where it was (pages
    /// from the page cache, the network only for pages it lost). Done once: later calls
    /// return at once. A fresh place when the store has none for this backend.
    @discardableResult
    public func resume() async throws(RepositoryError) -> ResumeReport {
        await takeTurn()
        defer { endTurn() }
        return try await resumeInTurn()
    }

    private func takeTurn() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func endTurn() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    private func resumeInTurn() async throws(RepositoryError) -> ResumeReport {
        guard !resumed else { return ResumeReport(anchorIndex: anchorIndex, restored: generation > 0, notices: []) }
        var notices: [String] = []
        let load = await client.placeStore.loadPlace(.infinite, backendIdentity: client.backend.identity, reader: reader)
        if let problem = load.problem { notices.append(problem) }
        guard var state = load.state else {
            generation = 0
            await feed.restore(InfiniteFeed.Snapshot(segments: [], nextKey: client.repository.firstPageKey, totalCount: nil))
            resumed = true
            return ResumeReport(anchorIndex: 0, restored: false, notices: notices)
        }
        generation = state.generation
        shownLength = state.readLength
        seenPostIDs = state.seenPostIDs
        if state.pageSize != client.configuration.pageSize {
            notices.append("page size changed from \(state.pageSize) to \(client.configuration.pageSize); keeping your place")
            state = state.resized(to: client.configuration.pageSize, firstPageKey: client.repository.firstPageKey)
        }
        await feed.restore(try await client.snapshot(restoring: state), hiddenPostIDs: seenPostIDs)
        anchorIndex = state.restoredIndex(in: await feed.loadedPostIDs) ?? 0
        resumed = true
        return ResumeReport(anchorIndex: anchorIndex, restored: true, notices: notices)
    }

    /// The reader's next posts, right after the last one shown (at most a page, the
    /// client's page size), marked shown and seen, and the place saved.
    ///
    /// Pages come through the client: cache first, one transfer for a page however many
    /// sessions ask for it at once.
    /// - Throws: ``RepositoryError`` when a page cannot be had; the place is unchanged then.
    public func next() async throws(RepositoryError) -> Page {
        await takeTurn()
        defer { endTurn() }
        let report = try await resumeInTurn()
        var notices = report.notices
        let size = client.configuration.pageSize
        // The first feed index at or past the backend position shown through.
        var start: Int?
        var loads = 0
        while true {
            let count = await feed.count
            let positions = await feed.listPositions(in: 0..<count)
            start = positions.firstIndex { $0 >= shownLength }
            let available = start.map { count - $0 } ?? 0
            guard available < size, await feed.hasMore, loads < PageKeyPlan.maximumListedPages else { break }
            guard try await feed.loadMore() > 0 else {
                if await feed.hasMore { loads += 1; continue }
                break
            }
            loads += 1
        }
        guard let start else {
            return Page(posts: [], firstPosition: shownLength, endReached: true, notices: notices)
        }
        let end = min(PlaceConverter.saturatingAdd(start, size), await feed.count)
        let posts = try await feed.posts(in: start..<end)
        let positions = await feed.listPositions(in: start..<end)
        if let last = positions.last { shownLength = max(shownLength, PlaceConverter.saturatingAdd(last, 1)) }
        seenPostIDs.formUnion(PostIDSet(posts.map(\.id)))
        anchorIndex = start
        var saveError: ListStateError?
        do {
            notices += try await saveInTurn()
        } catch {
            saveError = error
            notices.append(error.message)
        }
        let hasMore = await feed.hasMore
        let loaded = await feed.count
        let endReached = !hasMore && end >= loaded
        return Page(
            posts: posts, firstPosition: positions.first ?? shownLength, endReached: endReached, notices: notices,
            saveError: saveError)
    }

    /// Saves the reader's place now (``next()`` does after each page).
    /// - Returns: one line each when another instance's place was replaced, not merged.
    @discardableResult
    public func save() async throws(ListStateError) -> [String] {
        await takeTurn()
        defer { endTurn() }
        return try await saveInTurn()
    }

    private func saveInTurn() async throws(ListStateError) -> [String] {
        let state = client.infiniteState(
            await feed.snapshot(), anchorIndex: anchorIndex, shownPostIDs: seenPostIDs, shownLength: shownLength)
        let outcome = try await client.placeStore.savePlace(state, basedOn: generation, reader: reader)
        generation = outcome.generation
        seenPostIDs = outcome.state.seenPostIDs
        if let merged = outcome.state.shownLength { shownLength = max(shownLength, merged) }
        return outcome.notices
    }

    /// The image of post `id`, through the client's shared memory cache, disk cache and
    /// in-flight transfers (``FeedClient/image(forPostID:priority:deadline:logger:)``).
    public nonisolated func image(forPostID id: PostID) async throws(ImagePipelineError) -> ImageResponse {
        try await client.image(forPostID: id)
    }
}

extension FeedClient {
    /// A session for `reader`: that reader's place, over this client's engine, caches and
    /// in-flight transfers. Sessions are cheap; open one per request or keep one per reader.
    /// Two sessions of one reader at once save by read-modify-write, so neither's progress
    /// is lost.
    public func session(for reader: ReaderID) -> FeedSession {
        FeedSession(client: self, reader: reader)
    }
}
