import Foundation
import PostFeed
import PostFeedServer

/// A `Fixtures`-like directory with many posts, for the list benchmarks: `posts.json` made
/// by cycling the real fixture posts under new ids (1…N, newest first), and `images/`
/// holding the real images, so every `imageUrl` resolves.
///
/// The images are copied (4 MB), not symlinked: the fixture server lists only regular
/// files and serves nothing through a symlinked `images/` folder (every image is a 404).
enum LargeFixtures {
    static func make(posts count: Int, in directory: URL) throws {
        let real = FixtureLocator.fixturesDirectory()
        let source = real.appendingPathComponent("posts.json")
        let base: [Post]
        do {
            base = try JSONDecoder().decode([Post].self, from: Data(contentsOf: source))
        } catch {
            throw BenchError("cannot read the fixture posts at \(source.path): \(error); set \(FixtureLocator.fixturesEnvironmentKey)")
        }
        guard !base.isEmpty else { throw BenchError("\(source.path) holds no posts to copy") }
        let newest = Date(timeIntervalSince1970: 1_748_628_000)  // 2025-05-30T18:00:00Z, as the real set
        let posts = (0..<count).map { index in
            let template = base[index % base.count]
            return Post(
                id: index + 1, title: "\(template.title) (\(index + 1))", body: template.body, author: template.author,
                imageURL: template.imageURL, createdAt: newest.addingTimeInterval(-60 * Double(index)),
                popularity: template.popularity)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try JSONEncoder().encode(posts).write(to: directory.appendingPathComponent("posts.json"))
        try FileManager.default.copyItem(
            at: real.appendingPathComponent("images", isDirectory: true),
            to: directory.appendingPathComponent("images", isDirectory: true))
    }
}
