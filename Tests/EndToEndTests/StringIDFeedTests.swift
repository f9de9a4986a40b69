import Foundation
import PostFeedModels
import PostFeedServer
import Testing

/// Issue 32, item 1: ids are opaque strings. The fixture server serves the fixtures with
/// the ids other backends send (``ServedPostIDs/strings``): `"t3_<base 36>"`, 21-digit
/// numbers beyond 2⁶⁴ written as JSON numbers, and such numbers written as strings.
@Suite("a feed whose ids are strings")
struct StringIDFeedTests {
    /// Runs `body` with a fixture server serving string ids.
    private func withStringIDServer<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (RunningFixtureServer) async throws -> T
    ) async throws -> T {
        var configuration = FixtureServerConfiguration()
        configuration.postIDs = .strings
        return try await RunningFixtureServer.withRunning(configuration, body)
    }

    /// The id the server sends for fixture post `n` (see ``ServedPostIDs/strings``).
    static func served(_ n: Int) -> PostID {
        switch n % 3 {
        case 1: PostID("t3_" + String(n, radix: 36))!
        default: PostID("109876543210" + String(repeating: "0", count: 9 - String(n).count) + String(n))!
        }
    }

    @Test("list walks a string-id feed and continues where it stopped, the ids in the state file as strings")
    func infiniteWalkKeepsThePlace() async throws {
        let sandbox = try Sandbox()
        try await withStringIDServer { server in
            // Given: two pages listed
            let first = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            let printed = PrintedList(first.standardOutput)
            #expect(printed.positions == Array(1...40), "\(first)")
            #expect(printed.ids == (1...40).map(Self.served), "\(first)")
            #expect(!first.standardError.contains("skipped"), "no post is skipped: \(first)")

            // Then: the state file holds the ids as strings, version 3
            let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(state.version == 3)
            #expect(state.loadedPostIDs == (1...40).map(Self.served))
            #expect(state.anchor?.postID == Self.served(21), "\(String(describing: state.anchor))")
            let text = try String(contentsOf: sandbox.infiniteStateFile, encoding: .utf8)
            #expect(text.contains("\"t3_1\""), "\(text)")
            #expect(text.contains("\"109876543210000000002\""), "\(text)")

            // When: the next run lists on
            let next = try await sandbox.run(["list", "--no-images"], against: server)

            // Then: it continues after the 40 posts, and the seen set keeps them across runs
            #expect(next.succeeded, "\(next)")
            #expect(PrintedList(next.standardOutput).positions == Array(41...60), "\(next)")
            #expect(PrintedList(next.standardOutput).ids == (41...60).map(Self.served), "\(next)")
            let unseen = try await sandbox.run(["list", "--unseen", "--no-images", "--restart"], against: server)
            #expect(unseen.succeeded, "\(unseen)")
            let unseenIDs = PrintedList(unseen.standardOutput).ids
            let seenBefore = Set((1...60).map(Self.served))
            let onlyUnseen = unseenIDs.allSatisfy { !seenBefore.contains($0) }
            #expect(!unseenIDs.isEmpty && onlyUnseen, "\(unseen)")
        }
    }

    @Test("mode paged and back keep the place in a string-id feed")
    func modeRoundTrip() async throws {
        let sandbox = try Sandbox()
        try await withStringIDServer { server in
            // Given: three pages in infinite mode (post #41 in view)
            let list = try await sandbox.run(["list", "--pages", "3", "--no-images"], against: server)
            try #require(list.succeeded, "\(list)")

            // When: to paged and back
            let toPaged = try await sandbox.run(["mode", "paged", "--json"], against: server)
            #expect(toPaged.succeeded, "\(toPaged)")
            let switched = try ModeJSON.decode(toPaged.standardOutput, from: "mode paged --json")
            let back = try await sandbox.run(["mode", "infinite"], against: server)
            #expect(back.succeeded, "\(back)")

            // Then: page 3 with post #41 (a string id) in view, and the list goes on at 61
            #expect(switched.page == 3)
            #expect(switched.anchorPosition == 41)
            #expect(switched.anchorPostID == Self.served(41))
            let page = try await sandbox.run(["page", "--no-images"], against: server)
            #expect(PrintedList(page.standardOutput).ids == (41...60).map(Self.served), "\(page)")
            let next = try await sandbox.run(["list", "--no-images"], against: server)
            #expect(PrintedList(next.standardOutput).positions == Array(61...80), "\(next)")
        }
    }

    @Test("show takes a string id and an id beyond 64 bits", arguments: [1, 2, 3])
    func show(fixtureID: Int) async throws {
        let sandbox = try Sandbox()
        try await withStringIDServer { server in
            let id = Self.served(fixtureID)
            let run = try await sandbox.run(["show", id.text, "--images", "none"], against: server)
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.first?.hasPrefix("#\(id.text)  ") == true, "\(run)")
            let json = try await sandbox.run(["show", id.text, "--json"], against: server)
            #expect(try ShowJSON.decode(json.standardOutput, from: "show --json").post.id == id, "\(json)")
        }
    }

    @Test("show of an id the backend does not have quotes the id")
    func showMissing() async throws {
        let sandbox = try Sandbox()
        try await withStringIDServer { server in
            let run = try await sandbox.run(["show", "t3_nope"], against: server)
            #expect(!run.succeeded, "\(run)")
            #expect(run.standardError.contains("post \"t3_nope\""), "\(run)")
        }
    }

    @Test("image ID --output folder names the file after the id")
    func imageIntoFolder() async throws {
        let sandbox = try Sandbox()
        try await withStringIDServer { server in
            let folder = sandbox.directory.appendingPathComponent("pictures")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let id = Self.served(1)  // t3_1
            let run = try await sandbox.run(["image", id.text, "--output", folder.path + "/"], against: server)
            #expect(run.succeeded, "\(run)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names.count == 1 && names.first?.hasPrefix("t3_1.") == true, "\(names) \(run)")
        }
    }

    @Test("an id given on the command line that no backend can have is a usage error naming why")
    func invalidIDArgument() async throws {
        let sandbox = try Sandbox()
        let long = String(repeating: "x", count: PostID.maximumLength + 1)
        let run = try await sandbox.run(["show", long, "--base-url", "http://127.0.0.1:1"])
        #expect(!run.succeeded, "\(run)")
        #expect(run.standardError.contains("is longer than 1024 bytes"), "\(run)")
    }
}
