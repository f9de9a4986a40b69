import Foundation
import Logging

extension InfiniteFeed {
    /// One loaded page: its key and post ids always (packed, about a byte an id), its posts
    /// while resident.
    public struct Segment: Sendable, Equatable {
        /// The page's key, to read its posts again from the page cache.
        public var key: PageKey
        private var shown: PackedPostIDs
        /// `nil` while the page hides none of its posts (the usual case): the same as ``shown``.
        private var listed: PackedPostIDs?
        var posts: [Post]?
        /// The ids of the page's posts as its copy in the feed lists them upstream,
        /// duplicates of other pages included; `nil` while that is ``listedPostIDs`` (or
        /// unknown, as after a restore). A post another page lets go of comes back to the
        /// page that lists it here.
        var upstreamPostIDs: [PostID]?

        /// The ids of the posts the feed shows from this page, in the feed's order.
        public var postIDs: [PostID] {
            get { shown.ids }
            set { shown = PackedPostIDs(newValue) }
        }

        /// The ids of the page's posts as the backend listed them, less duplicates of
        /// earlier pages: ``postIDs`` plus the posts hidden by
        /// ``Configuration/unseenOnly``, in the backend's order. List state saves these,
        /// so post numbers stay the backend's positions.
        public var listedPostIDs: [PostID] {
            get { listed?.ids ?? shown.ids }
            set { listed = newValue == shown.ids ? nil : PackedPostIDs(newValue) }
        }

        /// Whether the page's posts are in memory (see ``Configuration/maximumResidentPages``).
        public var isResident: Bool { posts != nil }
        /// Number of posts the feed shows from this page.
        var shownCount: Int { shown.count }
        /// Number of posts the backend listed on this page (shown and hidden).
        var listedCount: Int { listed?.count ?? shown.count }
        /// Bytes the packed ids take (for tests of the feed's memory).
        var idByteCount: Int { shown.byteCount + (listed?.byteCount ?? 0) }
        /// Whether every listed post is shown (``listedPostIDs`` equals ``postIDs``).
        var hidesNone: Bool { listed == nil }

        /// The offset among ``postIDs`` of `id`, if the page shows it.
        func offset(ofPostID id: PostID) -> Int? { shown.firstIndex(of: id) }

        /// A page whose posts are all shown, in the backend's order.
        public init(key: PageKey, postIDs: [PostID]) {
            self.key = key
            self.shown = PackedPostIDs(postIDs)
            self.listed = nil
            self.posts = nil
        }

        /// A page showing `postIDs` of the `listedPostIDs` the backend listed.
        public init(key: PageKey, postIDs: [PostID], listedPostIDs: [PostID]) {
            self.init(key: key, postIDs: postIDs)
            self.listedPostIDs = listedPostIDs
        }

        /// Equal when key, ids and residency match (not the upstream listing, which list state does not keep).
        public static func == (lhs: Segment, rhs: Segment) -> Bool {
            lhs.key == rhs.key && lhs.shown == rhs.shown && lhs.listedPostIDs == rhs.listedPostIDs && lhs.posts == rhs.posts
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
        // A page whose posts are all hidden is kept, empty, so the pages stay 1, 2, 3, … and
        // the hidden posts keep their positions.
        var segment = Segment(key: page.key, postIDs: fresh.map(\.id), listedPostIDs: listed)
        segment.posts = fresh
        if listed.count < page.posts.count { segment.upstreamPostIDs = page.posts.map(\.id) }
        segments.append(segment)
        knownIDs.formUnion(listed)
        return fresh.count
    }
}
