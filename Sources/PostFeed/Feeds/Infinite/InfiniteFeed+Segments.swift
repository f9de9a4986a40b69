import Foundation
import Logging

extension InfiniteFeed {
    /// One loaded page: its key and post ids always, its posts while resident.
    public struct Segment: Sendable, Equatable {
        /// The page's key, to read its posts again from the page cache.
        public var key: PageKey
        /// The ids of the posts the feed shows from this page, in the feed's order.
        public var postIDs: [Int]
        /// The ids of the page's posts as the backend listed them, less duplicates of
        /// earlier pages: ``postIDs`` plus the posts hidden by
        /// ``Configuration/unseenOnly``, in the backend's order. List state saves these,
        /// so post numbers stay the backend's positions.
        public var listedPostIDs: [Int]
        var posts: [Post]?
        /// Whether the page's posts are in memory (see ``Configuration/maximumResidentPages``).
        public var isResident: Bool { posts != nil }

        /// A page whose posts are all shown, in the backend's order.
        public init(key: PageKey, postIDs: [Int]) {
            self.init(key: key, postIDs: postIDs, listedPostIDs: postIDs)
        }

        /// A page showing `postIDs` of the `listedPostIDs` the backend listed.
        public init(key: PageKey, postIDs: [Int], listedPostIDs: [Int]) {
            self.key = key
            self.postIDs = postIDs
            self.listedPostIDs = listedPostIDs
            self.posts = nil
        }
    }

    /// Appends a page minus posts already loaded (and hidden ones); returns how many were added.
    @discardableResult
    func append(_ page: Page) -> Int {
        var fresh = page.posts.filter { !knownIDs.contains($0.id) }
        if fresh.count < page.posts.count {
            driftEvents += 1
            logger.debug("page overlaps loaded posts; skipped duplicates", metadata: [
                "page": "\(page.key)", "duplicates": "\(page.posts.count - fresh.count)",
            ])
        }
        let listed = fresh.map(\.id)
        if configuration.unseenOnly { fresh.removeAll { hiddenPostIDs.contains($0.id) } }
        if configuration.ordering == .popularity {
            fresh = fresh.enumerated().sorted { lhs, rhs in
                let (l, r) = (lhs.element.popularity ?? 0, rhs.element.popularity ?? 0)
                return l != r ? l > r : lhs.offset < rhs.offset
            }.map(\.element)
        }
        // A page whose posts are all hidden is kept, empty, so the pages stay 1, 2, 3, … and
        // the hidden posts keep their positions.
        var segment = Segment(key: page.key, postIDs: fresh.map(\.id), listedPostIDs: listed)
        segment.posts = fresh
        segments.append(segment)
        knownIDs.formUnion(listed)
        return fresh.count
    }
}
