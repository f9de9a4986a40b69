import PostFeedModels
import Synchronization

/// Posts whose content changed since `Fixtures/` was loaded, for clients' tests of fresher
/// content: a revised post's title starts with its revision (`(revision 2) What city
/// gardens taught me…`), so the pages and the post that hold it get a new body and a new
/// `ETag`, and a conditional request for them gets a `200` instead of a `304`. Pages
/// without a revised post keep their `ETag`.
///
/// Every post starts at revision 0 (as in the fixtures); each ``revise(_:)`` of a post
/// adds one. Revisions live as long as the server; ``FixtureTestRoutes`` (`/test/revise`)
/// and ``RunningFixtureServer/revise(postIDs:)`` make them.
final class PostRevisions: Sendable {
    private let revisions = Mutex<[PostID: Int]>([:])

    /// Most post ids one ``revise(_:)`` takes (a range is expanded).
    static let maximumPerCall = 100_000

    /// Bumps the revision of each of `ids`; returns every post's revision after it (revised
    /// posts only).
    @discardableResult
    func revise(_ ids: some Sequence<PostID>) -> [PostID: Int] {
        revisions.withLock { revisions in
            for id in ids { revisions[id, default: 0] &+= 1 }
            return revisions
        }
    }

    /// `posts` as the server now serves them: revised ones with their revision in the title.
    func applied(to posts: [Post]) -> [Post] {
        let current = revisions.withLock { $0 }
        guard !current.isEmpty else { return posts }
        return posts.map { Self.revised($0, revision: current[$0.id] ?? 0) }
    }

    /// `post` as the server now serves it.
    func applied(to post: Post) -> Post {
        Self.revised(post, revision: revisions.withLock { $0[post.id] } ?? 0)
    }

    /// `post` at `revision`: unchanged at 0, else its title prefixed `(revision N) `.
    static func revised(_ post: Post, revision: Int) -> Post {
        guard revision > 0 else { return post }
        var post = post
        post.title = title(post.title, revision: revision)
        return post
    }

    /// A title at `revision` (> 0): `(revision 2) What city gardens taught me about sourdough`.
    static func title(_ title: String, revision: Int) -> String {
        "(revision \(revision)) \(title)"
    }
}
