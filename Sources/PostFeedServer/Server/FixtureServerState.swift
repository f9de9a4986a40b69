import Foundation
import Synchronization

/// Everything the routes share while a server runs: the loaded data, the counters, the fault
/// plan and the `/test/flaky` counters. Immutable data plus `Mutex`-guarded state.
final class FixtureServerState: Sendable {
    let configuration: FixtureServerConfiguration
    /// `Fixtures/posts.json`; empty for flavors that serve peer data.
    let posts: PostCatalog
    let images: ImageCatalog
    /// The flavor's dataset, for every flavor but ``BackendFlavor/postFeed``.
    let peerData: PeerDataset?
    /// The recorded responses of a real API (``BackendFlavor/recordedAPI``); `nil` otherwise.
    let recordings: APIRecordings?
    let requestLog = RequestLog()
    /// Posts revised since start (`/test/revise`): their titles, bodies and `ETag`s changed.
    let revisions = PostRevisions()
    let faults: FaultPlanner
    /// Requests seen so far per `/test/flaky` key.
    let flakyAttempts = Mutex<[String: Int]>([:])
    /// `host:port` once bound; used for links when a request has no `Host`.
    let boundAuthority: Mutex<String>

    init(configuration: FixtureServerConfiguration) throws {
        let problems = configuration.faults.problems
        guard problems.isEmpty else {
            throw FixtureServerError.invalidConfiguration(problems.joined(separator: "; "))
        }
        guard (0...65_535).contains(configuration.port) else {
            throw FixtureServerError.invalidConfiguration("port \(configuration.port) is not 0…65535")
        }
        self.configuration = configuration
        self.images = try ImageCatalog.load(fixturesDirectory: configuration.fixturesDirectory)
        self.recordings = try configuration.flavor.recordedAPI.map {
            try APIRecordings.load(configuration.fixturesDirectory.appendingPathComponent("apis/\($0)", isDirectory: true))
        }
        switch configuration.flavor {
        case .wordpress, .mastodon, .hackernews, .reddit, .ghost, .lemmy, .discourse, .forem:
            self.posts = PostCatalog(posts: [])
            self.peerData = nil
        case .postFeed:
            self.posts = try PostCatalog.load(fixturesDirectory: configuration.fixturesDirectory)
            self.peerData = nil
        case .jsonServer017, .jsonServerV1:
            self.posts = PostCatalog(posts: [])
            self.peerData = try PeerDataset.jsonPlaceholderPosts(peerDataDirectory: configuration.peerDataDirectory)
        case .dummyJSON:
            self.posts = PostCatalog(posts: [])
            self.peerData = try PeerDataset.dummyJSONPosts(peerDataDirectory: configuration.peerDataDirectory)
        }
        self.faults = FaultPlanner(plan: configuration.faults)
        self.boundAuthority = Mutex("\(configuration.host):\(configuration.port)")
    }

    /// The next attempt number (1-based) for a `/test/flaky` key.
    func nextFlakyAttempt(key: String) -> Int {
        flakyAttempts.withLock { attempts in
            attempts[key, default: 0] += 1
            return attempts[key, default: 1]
        }
    }
}
