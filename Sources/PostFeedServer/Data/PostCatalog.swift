import Foundation
import PostFeedModels

/// The posts of `Fixtures/posts.json`, in file order, with an index by id.
struct PostCatalog: Sendable {
    let posts: [Post]
    private let indexByID: [PostID: Int]

    init(posts: [Post]) {
        self.posts = posts
        var index: [PostID: Int] = [:]
        for (offset, post) in posts.enumerated() where index[post.id] == nil {
            index[post.id] = offset
        }
        self.indexByID = index
    }

    func post(id: PostID) -> Post? {
        indexByID[id].map { posts[$0] }
    }

    /// Reads `<fixtures>/posts.json`, a JSON array of posts in PostFeed's wire format.
    static func load(fixturesDirectory: URL) throws -> PostCatalog {
        let file = fixturesDirectory.appendingPathComponent("posts.json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw FixtureServerError.missingFile(
                file,
                hint: "run scripts/make_fixtures.py, or point FixtureServerConfiguration.fixturesDirectory "
                    + "(or \(FixtureLocator.fixturesEnvironmentKey)) at a folder with posts.json")
        }
        do {
            return try LoadCache.value(for: LoadCache.identity(of: file)) {
                PostCatalog(posts: try JSONDecoder().decode([Post].self, from: try Data(contentsOf: file)))
            }
        } catch {
            throw FixtureServerError.unreadableData(
                file, reason: "\(error); expected a JSON array of posts (see Fixtures/README.md)")
        }
    }
}
