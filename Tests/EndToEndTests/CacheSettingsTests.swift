import Foundation
import Testing

/// `cache` commands open the caches with the client's settings, so `stats` and `prune`
/// judge them as a run does.
@Suite("cache commands use the client's settings")
struct CacheSettingsTests {
    @Test("cache stats reports the page cache against the client's 64 MiB, the image cache against 256 MiB")
    func sizeLimits() async throws {
        let sandbox = try Sandbox()
        let run = try await sandbox.run(["cache", "stats", "--json"])
        #expect(run.succeeded, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let caches = try #require(object["caches"] as? [[String: Any]])
        let limits = Dictionary(uniqueKeysWithValues: caches.compactMap { cache -> (String, Int)? in
            guard let name = cache["name"] as? String, let statistics = cache["statistics"] as? [String: Any],
                  let limit = statistics["sizeLimit"] as? Int else { return nil }
            return (name, limit)
        })
        #expect(limits["PageCache"] == 64 << 20, "\(limits)")
        #expect(limits["ImageCache"] == 256 << 20, "\(limits)")
    }
}
