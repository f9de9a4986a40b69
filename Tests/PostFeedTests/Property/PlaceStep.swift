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
            }
        } catch let error as RepositoryError where error.code == .pageOutOfRange {
            step.error = error.description
        }
        return step
    }

    /// `postfeed list`: resume (or restart), load pages, save at the top of each.
    private static func list(_ client: FeedClient, pages: Int, restart: Bool, into step: inout PlaceStep) async throws {
        let resumed = restart ? await client.restartInfinite() : try await client.resumeInfinite()
        step.notices += resumed.notices
        var place = resumed.anchorIndex
        var loaded = false
        for _ in 0..<pages {
            let start = await client.infinite.count
            guard try await client.infinite.loadMore() > 0 else { break }
            (place, loaded) = (start, true)
            step.notices += try await client.saveInfinite(anchorIndex: start)
        }
        if loaded {
            let ids = await client.infinite.loadedPostIDs
            step.expectedAnchorID = ids.indices.contains(place) ? ids[place] : nil
        } else {
            step.notices += try await client.saveInfinite(anchorIndex: place)
        }
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
