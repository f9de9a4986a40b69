import Foundation
import PostFeed

/// What one operation did, as the invariants need it.
struct PlaceStep {
    /// Every line the run would have printed about the state (discarded files, merges,
    /// pages past the end).
    var notices: [String] = []
    /// The operation failed as a user would see it (a page past the end): not a violation.
    var error: String?
    /// `list`: the id at the top of the last page loaded, which must be the saved place.
    var expectedAnchorID: PostID?
    /// Two processes: the ids each one's save held, the saver's (A) anchor.
    var concurrent: (saver: [PostID], other: [PostID], saverAnchor: PostID?)?
    /// Round trip: the post in view before and after.
    var roundTrip: (before: PostID?, after: PostID?)?
    /// `list`: the backend positions (0-based) of the first and last posts it printed.
    var printed: (first: Int, last: Int)?
    /// `browse`: the backend position after the furthest post shown in the backend's order.
    var browseShownThrough: Int?
}

extension PlaceOperation {
    /// Runs the operation as the CLI would, through one or two ``FeedClient``s.
    func perform(in world: PlaceWorld) async throws -> PlaceStep {
        var step = PlaceStep()
        do {
            switch self {
            case .list(let pages, let size, let restart, let unseen):
                try await world.withClient(pageSize: size, unseen: unseen) { client in
                    try await Self.list(client, pages: pages, restart: restart, into: &step)
                }
            case .page(let number, let size):
                try await world.withClient(pageSize: size) { client in
                    step.notices += try await client.resumePaged(page: number).notices
                    step.notices += try await client.savePaged(anchorIndexInPage: 0)
                }
            case .step(let forward, let size):
                try await world.withClient(pageSize: size) { client in
                    step.notices += try await client.resumePaged().notices
                    if forward, await client.paged.hasNext { try await client.paged.next() }
                    if !forward, await client.paged.hasPrevious { try await client.paged.previous() }
                    step.notices += try await client.savePaged(anchorIndexInPage: 0)
                }
            case .switchMode(let mode, let size):
                try await world.withClient(pageSize: size) { client in
                    step.notices += try client.switchMode(to: mode).notices
                }
            case .roundTrip(let size):
                try await world.withClient(pageSize: size) { client in
                    let (mode, notices) = client.currentMode()
                    step.notices += notices
                    let before = world.restored(mode)?.anchor?.postID
                    step.notices += try client.switchMode(to: mode == .paged ? .infinite : .paged).notices
                    step.notices += try client.switchMode(to: mode).notices
                    step.roundTrip = (before, world.restored(mode)?.anchor?.postID)
                }
            case .refresh(let size):
                try await world.withClient(pageSize: size) { client in
                    step.notices += try await client.resumeInfinite().notices
                    try await client.infinite.refresh()
                    step.notices += try await client.saveInfinite(anchorIndex: 0)
                }
            case .concurrentList(let pages, let size, let otherRestarts):
                try await Self.concurrent(world, pages: pages, pageSize: size, otherRestarts: otherRestarts, into: &step)
            case .resizeBackend(let index):
                world.backendIndex = index
            case .damage(let mode, let damage):
                try world.damage(mode, damage)
            case .browse(let size, let rows, let screens, let ahead, let popularity):
                try await world.withClient(pageSize: size) { client in
                    try await Self.browse(client, rows: rows, screens: screens, ahead: ahead, popularity: popularity, into: &step)
                }
            }
        } catch let error as RepositoryError where error.code == .pageOutOfRange {
            step.error = error.description
        }
        return step
    }

    /// `postfeed list`: resume (or restart), hand pages over (the posts loaded earlier but
    /// never shown first), save at the top of each.
    private static func list(_ client: FeedClient, pages: Int, restart: Bool, into step: inout PlaceStep) async throws {
        let resumed = restart ? await client.restartInfinite() : try await client.resumeInfinite()
        step.notices += resumed.notices
        let reading = await client.readInfinite(pages: pages, after: resumed, onPage: { _ in })
        if let failure = reading.failure { throw failure }
        step.notices += reading.notices
        step.notices += try await client.savePlace(after: reading)
        if reading.end > reading.start {
            let ids = await client.infinite.loadedPostIDs
            step.expectedAnchorID = ids.indices.contains(reading.place) ? ids[reading.place] : nil
            let positions = await client.infinite.listPositions(in: reading.start..<reading.end)
            if let first = positions.first, let last = positions.last { step.printed = (first, last) }
        }
    }

    /// `postfeed browse` as ``PlaceOperation/browse(pageSize:rows:screens:ahead:popularity:)`` says.
    private static func browse(
        _ client: FeedClient, rows: Int, screens: Int, ahead: Int, popularity: Bool, into step: inout PlaceStep
    ) async throws {
        let resumed = try await client.resumeInfinite()
        step.notices += resumed.notices
        let feed = client.infinite
        if await feed.count == 0 { try await feed.loadMore() }
        var top = resumed.anchorIndex
        var seen = PostIDSet()
        for screen in 0..<screens {
            while await feed.count < top + rows, await feed.hasMore {
                guard try await feed.loadMore() > 0 else { break }
            }
            let count = await feed.count
            guard top < count else { break }
            let range = top..<min(count, top + rows)
            await client.markShown(feedIndices: range)
            seen.formUnion(await client.shownPostIDs(in: range))
            if let last = await feed.listPositions(in: (range.upperBound - 1)..<range.upperBound).first {
                step.browseShownThrough = max(step.browseShownThrough ?? 0, last + 1)
            }
            if screen < screens - 1 { top = min(top + rows, count - 1) }
        }
        // Pages loaded and never shown: the next page ahead, the catalog walk.
        for _ in 0..<ahead {
            guard await feed.hasMore, try await feed.loadMore() > 0 else { break }
        }
        let count = await feed.count
        if popularity, count > 0 {
            let posts = try await feed.posts(in: 0..<count)
            let positions = await feed.listPositions(in: 0..<count)
            let ranked = PopularityRanking.ordered(zip(posts, positions)) { ($0.0.popularity, $0.1) }
            seen.formUnion(ranked.prefix(rows).map(\.0.id))
        }
        guard count > 0 else { return }
        step.notices += try await client.saveInfinite(anchorIndex: min(max(top, 0), count - 1), shownPostIDs: seen)
    }

    /// A run (the saver) has the infinite state loaded while another lists pages and
    /// saves; then the saver loads a page and saves.
    private static func concurrent(
        _ world: PlaceWorld, pages: Int, pageSize: Int, otherRestarts: Bool, into step: inout PlaceStep
    ) async throws {
        try await world.withClient(pageSize: pageSize) { saver in
            step.notices += try await saver.resumeInfinite().notices
            var other: [PostID] = []
            try await world.withClient(pageSize: pageSize) { client in
                var otherStep = PlaceStep()
                try await list(client, pages: pages, restart: otherRestarts, into: &otherStep)
                step.notices += otherStep.notices
                other = await client.infinite.loadedPostIDs
            }
            let start = await saver.infinite.count
            let added = try await saver.infinite.loadMore()
            let anchor = added > 0 ? start : max(0, start - 1)
            let ids = await saver.infinite.loadedPostIDs
            step.notices += try await saver.saveInfinite(anchorIndex: anchor)
            step.concurrent = (ids, other, ids.indices.contains(anchor) ? ids[anchor] : nil)
        }
    }

    /// Whether this operation reads `mode`'s state (and so must report a damaged file).
    func loads(_ mode: ListMode) -> Bool {
        switch self {
        case .list(_, _, let restart, _): mode == .infinite && !restart
        case .refresh, .concurrentList: mode == .infinite
        case .page, .step: mode == .paged
        case .switchMode, .roundTrip: true
        case .resizeBackend, .damage: false
        case .browse: mode == .infinite
        }
    }

    /// Whether the reader asked for the infinite list to be replaced (its posts may go).
    var replacesInfiniteList: Bool {
        switch self {
        case .list(_, _, let restart, _): restart
        case .refresh: true
        case .concurrentList(_, _, let otherRestarts): otherRestarts
        case .damage(let mode, _): mode == .infinite
        default: false
        }
    }
}
