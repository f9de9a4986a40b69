import Foundation
import PostFeedModels
import PostFeedServer
import Testing

@Suite("postfeed mode")
struct ModeCommandTests {
    @Test("switching to paged and back keeps the post in view")
    func switchKeepsThePlace() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: infinite mode, page size 10, posts 1–70 loaded; the last run printed
            // posts 31–70; the place is the top of the last page printed: post 61 (index 60).
            let first = try await sandbox.run(["list", "--page-size", "10", "--pages", "3", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            let second = try await sandbox.run(["list", "--page-size", "10", "--pages", "4", "--no-images"], against: server)
            try #require(second.succeeded, "\(second)")
            try #require(PrintedList(second.standardOutput).positions == Array(31...70), "\(second)")
            let infinite = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            try #require(infinite.anchor?.postID == 61 && infinite.anchor?.index == 60, "anchor \(String(describing: infinite.anchor))")

            let current = try await sandbox.run(["mode", "--page-size", "10"], against: server)
            #expect(current.succeeded, "\(current)")
            #expect(current.outputLines == ["infinite"], "\(current)")

            // When
            let toPaged = try await sandbox.run(["mode", "paged", "--page-size", "10", "--json"], against: server)

            // Then: page 7 (posts 61–70) with post #61 in view
            #expect(toPaged.succeeded, "\(toPaged)")
            let switched = try ModeJSON.decode(toPaged.standardOutput, from: "mode paged --json")
            #expect(switched.mode == "paged")
            #expect(switched.page == 7)
            #expect(switched.anchorPostID == 61)
            #expect(switched.anchorPosition == 61)
            #expect(switched.startedFresh == false)
            #expect(switched.alreadyCurrent == false)

            let mode = try await sandbox.run(["mode", "--page-size", "10"], against: server)
            #expect(mode.outputLines == ["paged"], "\(mode)")

            // When: page without a number
            let page = try await sandbox.run(["page", "--page-size", "10", "--no-images"], against: server)

            // Then: page 7
            #expect(page.succeeded, "\(page)")
            #expect(page.outputLines.first == "Page 7 of 25", "\(page)")
            #expect(PrintedList(page.standardOutput).ids == Array(61...70), "\(page)")

            // Then: state show reflects it
            let shown = try await sandbox.run(["state", "show", "--json"])
            #expect(shown.succeeded, "\(shown)")
            let states = try [String: StateJSON].decode(shown.standardOutput, from: "state show --json")
            #expect(states["paged"]?.currentPage == 7)
            #expect(states["paged"]?.anchor?.postID == 61)
            #expect(states["paged"]?.pageSize == 10)
            #expect(states["infinite"]?.loadedPostIDs.count == 70)

            // When: back to infinite
            let toInfinite = try await sandbox.run(["mode", "infinite", "--page-size", "10"], against: server)

            // Then: post #61 is in view again
            #expect(toInfinite.succeeded, "\(toInfinite)")
            #expect(toInfinite.outputLines.first?.hasPrefix("infinite mode") == true, "\(toInfinite)")
            #expect(toInfinite.standardOutput.contains("post #61 (id 61)"), "\(toInfinite)")
            let back = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
            #expect(back.mode == "infinite")
            #expect(back.anchor?.postID == 61)
            #expect(back.anchor?.index == 60)
            let after = try await sandbox.run(["mode", "--page-size", "10"], against: server)
            #expect(after.outputLines == ["infinite"], "\(after)")
        }
    }

    @Test("a switch with no saved place starts the new mode at the top")
    func switchWithoutState() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["mode", "paged"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.outputLines.first?.contains("paged mode at page 1") == true, "\(run)")
            #expect(run.standardOutput.contains("from the top"), "\(run)")
            let state = try StateJSON.decode(contentsOf: sandbox.pagedStateFile)
            #expect(state.currentPage == 1)
        }
    }

    @Test("naming the current mode keeps its place: the other mode's older place is not carried over")
    func switchToTheCurrentModeChangesNothing() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: infinite mode with posts 1–40 loaded, and no paged state
            let list = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(list.succeeded, "\(list)")
            let infiniteBefore = try Data(contentsOf: sandbox.infiniteStateFile)

            // When
            let again = try await sandbox.run(["mode", "infinite", "--json"], against: server)

            // Then: the infinite state is byte for byte the same, and no paged state appeared
            #expect(again.succeeded, "\(again)")
            let report = try ModeJSON.decode(again.standardOutput, from: "mode infinite --json")
            #expect(report.mode == "infinite")
            #expect(report.alreadyCurrent == true)
            #expect(report.startedFresh == false)
            #expect(try Data(contentsOf: sandbox.infiniteStateFile) == infiniteBefore)
            #expect(!FileManager.default.fileExists(atPath: sandbox.pagedStateFile.path))

            // Given: paged mode at page 5, the infinite place now older
            let page = try await sandbox.run(["page", "5", "--no-images"], against: server)
            try #require(page.succeeded, "\(page)")

            // When
            let pagedAgain = try await sandbox.run(["mode", "paged"], against: server)

            // Then: still page 5, and the text says nothing changed
            #expect(pagedAgain.succeeded, "\(pagedAgain)")
            #expect(pagedAgain.outputLines.first?.hasPrefix("paged mode at page 5") == true, "\(pagedAgain)")
            #expect(pagedAgain.standardOutput.contains("already the current mode"), "\(pagedAgain)")
            #expect(try StateJSON.decode(contentsOf: sandbox.pagedStateFile).currentPage == 5)
            let next = try await sandbox.run(["page", "--no-images"], against: server)
            #expect(next.outputLines.first?.hasPrefix("Page 5 of") == true, "\(next)")
        }
    }

    @Test("a switch against another backend with no place of its own leaves the saved place alone")
    func switchDoesNotDisplaceAnotherBackendsPlace() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given paged mode at page 5 of this server
            let page = try await sandbox.run(["page", "5", "--no-images"], against: server)
            try #require(page.succeeded, "\(page)")
            let before = try Data(contentsOf: sandbox.pagedStateFile)

            // When: a mistyped --base-url (nothing listens there; mode makes no request)
            let typo = try await sandbox.run(["mode", "paged", "--base-url", "http://127.0.0.1:1"])

            // Then: a clear refusal, and State/ exactly as it was
            #expect(typo.failed, "\(typo)")
            #expect(typo.errorMessage?.contains("not switching to paged mode") == true, "\(typo)")
            #expect(typo.errorMessage?.contains("pagination-state.json") == true, "\(typo)")
            #expect(try Data(contentsOf: sandbox.pagedStateFile) == before)
            let stateFiles = sandbox.regularFiles(under: sandbox.stateDirectory).map(\.lastPathComponent)
            let noneSetAside = stateFiles.allSatisfy { !$0.contains("corrupt") }
            #expect(noneSetAside, "\(stateFiles)")

            // Then: the right backend is still at page 5
            let again = try await sandbox.run(["page", "--no-images"], against: server)
            #expect(again.outputLines.first?.hasPrefix("Page 5 of") == true, "\(again)")
        }
    }

    @Test("an unknown mode is a usage error")
    func unknownMode() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await sandbox.run(["mode", "sideways"], against: server)

            // Then
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.contains("'sideways'") == true, "\(run)")
            #expect(sandbox.regularFiles(under: sandbox.stateDirectory).isEmpty)
        }
    }
}
