import Foundation
import PostFeed
import PostFeedServer
import Testing

/// The reader's place through the real binary: a few hundred runs of `list`, `page`,
/// `mode`, restarts and runs killed with SIGKILL at random moments, on one cache root.
/// After every run each state file is restorable and the infinite list only grew (unless
/// the run asked for a restart). The seed is printed with any failure.
@Suite("the reader's place through the binary, with kill -9")
struct PlaceSoakTests {
    static let steps = 240

    @Test("a few hundred runs, some killed mid-write: state always restorable, progress never lost")
    func soak() async throws {
        let sandbox = try Sandbox()
        let seed = ProcessInfo.processInfo.environment["POSTFEED_SOAK_SEED"].flatMap(UInt64.init) ?? 0x50A_C0DE
        var random = SplitMix64(seed: seed)
        try await withFixtureServer { server in
            let identity = backendIdentity(of: server)
            let store = ListStateStore(cacheRoot: sandbox.cacheRoot)
            var kills = 0
            for step in 1...Self.steps {
                let before = Self.restored(store, .infinite, identity)
                let (arguments, restarts, killAfter) = Self.randomRun(using: &random)
                let context = "seed \(seed), step \(step): postfeed \(arguments.joined(separator: " "))"
                if let killAfter {
                    let child = try PostfeedProcess.start(
                        arguments + ["--base-url", server.baseURL.absoluteString, "--cache-dir", sandbox.cacheRoot.path],
                        in: sandbox.directory)
                    try await Task.sleep(for: .milliseconds(killAfter))
                    child.send(SIGKILL)
                    _ = await child.waitForExit()
                    kills += 1
                } else {
                    let run = try await sandbox.run(arguments, against: server)
                    // A page past the end is a clean error; anything else must succeed.
                    let pastTheEnd = run.standardError.contains("past the end") || run.standardError.contains("the last page")
                        || run.standardError.contains("the first page")
                    #expect(run.succeeded || (run.failed && pastTheEnd), "\(context): \(run)")
                }
                for mode in ListMode.allCases {
                    if case .discarded(let reason, _) = store.load(mode: mode, backendIdentity: identity, setAside: .onNextSave) {
                        Issue.record("\(context): \(reason.message)")
                        return
                    }
                }
                let after = Self.restored(store, .infinite, identity)
                if let before, !restarts {
                    let kept = after?.loadedPostIDs.starts(with: before.loadedPostIDs) ?? false
                    #expect(kept, "\(context): the infinite list lost posts (\(before.loadedPostIDs.count) → \(after?.loadedPostIDs.count ?? 0))")
                    if !kept { return }
                }
            }
            #expect(kills > 10, "the soak killed only \(kills) runs")
        }
    }

    static func restored(_ store: ListStateStore, _ mode: ListMode, _ identity: String) -> ListState? {
        if case .restored(let state) = store.load(mode: mode, backendIdentity: identity, setAside: .onNextSave) { return state }
        return nil
    }

    /// A run: its arguments, whether it restarts the infinite list, and when to kill it.
    static func randomRun(using random: inout SplitMix64) -> (arguments: [String], restarts: Bool, killAfter: Int?) {
        let size = ["--page-size", "10", "--no-images"]
        let kill = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 5..<200, using: &random) : nil
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<3: return (["list", "--pages", "\(Int.random(in: 1..<4, using: &random))"] + size, false, kill)
        case 3: return (["list", "--restart"] + size, true, kill)
        case 4: return (["page", "\(Int.random(in: 1..<30, using: &random))"] + size, false, kill)
        case 5: return (["page", Int.random(in: 0..<2, using: &random) == 0 ? "--next" : "--previous"] + size, false, kill)
        case 6..<8: return (["mode", Int.random(in: 0..<2, using: &random) == 0 ? "paged" : "infinite", "--page-size", "10"], false, kill)
        default: return (["list", "--pages", "5"] + size, false, Int.random(in: 5..<300, using: &random))
        }
    }
}
