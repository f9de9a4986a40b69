import Foundation
import PostFeed
import PostFeedHTTP
import PostFeedServer

/// What the property test runs against: fixture servers of a few sizes (the backend
/// growing and shrinking between runs, under one identity) and one cache root.
final class PlaceWorld: @unchecked Sendable {
    /// Posts served by each backend size; the first is the full fixture set.
    static let sizes = [247, 95, 160]
    static let identity = "property-test backend"

    let servers: [DetachedFixtureServer]
    /// The fixtures folders of the smaller backends, removed in ``stop()``.
    private let folders: [URL]
    // Mutated only by the one task running a sequence.
    var cacheRoot: URL
    var backendIndex = 0
    /// The model of the place: the backend position (0-based) the next `list` must start
    /// at, right after the last post shown in the backend's order; `nil` after a step
    /// that moves it by other rules (a mode switch, a refresh, a second process, a
    /// backend that changed, a damaged infinite state).
    var nextListStart: Int? = 0

    private init(servers: [DetachedFixtureServer], folders: [URL]) {
        self.servers = servers
        self.folders = folders
        self.cacheRoot = FeedTestSupport.temporaryDirectory("place")
    }

    static func start() async throws -> PlaceWorld {
        var servers: [DetachedFixtureServer] = []
        var folders: [URL] = []
        let fixtures = FixtureLocator.fixturesDirectory()
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("posts.json")))
        let posts = all as? [Any] ?? []
        for size in sizes {
            var configuration = FixtureServerConfiguration()
            if size < posts.count {
                let folder = FeedTestSupport.temporaryDirectory("fixtures-\(size)")
                try JSONSerialization.data(withJSONObject: Array(posts.prefix(size))).write(to: folder.appendingPathComponent("posts.json"))
                try FileManager.default.createSymbolicLink(
                    at: folder.appendingPathComponent("images"), withDestinationURL: fixtures.appendingPathComponent("images"))
                configuration.fixturesDirectory = folder
                folders.append(folder)
            }
            servers.append(try await RunningFixtureServer.startDetached(configuration))
        }
        return PlaceWorld(servers: servers, folders: folders)
    }

    func stop() async {
        for server in servers { await server.shutdown() }
        for folder in folders + [cacheRoot] { try? FileManager.default.removeItem(at: folder) }
    }

    /// Starts over: a new, empty cache root and the full backend.
    func reset() {
        try? FileManager.default.removeItem(at: cacheRoot)
        cacheRoot = FeedTestSupport.temporaryDirectory("place")
        backendIndex = 0
        nextListStart = 0
    }

    var postCount: Int { Self.sizes[backendIndex] }

    /// A client of the current backend on the shared cache root, as one `postfeed` run.
    func withClient<T>(
        pageSize: Int, unseen: Bool = false, _ body: (FeedClient) async throws -> T
    ) async throws -> T {
        var backend = try BackendDescription.preset("postfeed", baseURL: servers[backendIndex].server.baseURL)
        backend.fixedIdentity = Self.identity
        var configuration = FeedClient.Configuration(backend: backend, pageSize: pageSize, cacheLocation: CacheLocation(root: cacheRoot))
        configuration.http.retryPolicy = .never
        configuration.infinite.unseenOnly = unseen
        configuration.infinite.imagePrefetchCount = 0
        configuration.paged.prefetchImages = false
        return try await FeedClient.withFeedClient(configuration) { try await body($0) }
    }

    // MARK: Reading the files

    var store: ListStateStore { ListStateStore(cacheRoot: cacheRoot) }

    /// The state of `mode` as the next run would restore it, without moving any file.
    func state(_ mode: ListMode) -> ListStateStore.LoadResult {
        store.load(mode: mode, backendIdentity: Self.identity, setAside: .onNextSave)
    }

    func restored(_ mode: ListMode) -> ListState? {
        if case .restored(let state) = state(mode) { return state }
        return nil
    }

    func fileBytes(_ mode: ListMode) -> Data? {
        try? Data(contentsOf: store.fileURL(for: mode))
    }

    /// Damages `mode`'s state file (when there is one).
    func damage(_ mode: ListMode, _ damage: PlaceOperation.Damage) throws {
        let url = store.fileURL(for: mode)
        guard let data = try? Data(contentsOf: url) else { return }
        var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        let damaged: Data
        switch damage {
        case .truncated: damaged = data.prefix(data.count / 2)
        case .garbage: damaged = Data("\u{0}\u{FF}not json at all".utf8)
        case .hugeAnchor:
            object["anchor"] = ["postID": 1, "index": Int.max]
            damaged = try JSONSerialization.data(withJSONObject: object)
        case .millionAnchor:
            object["anchor"] = ["postID": 1, "index": 1_000_000]
            damaged = try JSONSerialization.data(withJSONObject: object)
        case .negativeTotal:
            object["totalCount"] = -5
            damaged = try JSONSerialization.data(withJSONObject: object)
        case .pageZero:
            object["currentPage"] = 0
            object["pageSize"] = Int.max
            damaged = try JSONSerialization.data(withJSONObject: object)
        }
        try damaged.write(to: url)
    }
}
