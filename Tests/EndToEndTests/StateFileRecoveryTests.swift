import Foundation
import PostFeedServer
import Testing

@Suite("unusable state files")
struct StateFileRecoveryTests {
    @Test("state saved for another backend is moved aside and the run starts fresh")
    func otherBackend() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { serverA in
            try await withFixtureServer { serverB in
                // Given: two pages read from server A
                let first = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: serverA)
                try #require(first.succeeded, "\(first)")
                let saved = try Data(contentsOf: sandbox.infiniteStateFile)

                // When: the same cache, server B (another port: another identity)
                let run = try await sandbox.run(["list", "--no-images"], against: serverB)

                // Then: told why, file kept aside byte for byte, fresh start
                #expect(run.succeeded, "\(run)")
                #expect(run.standardError.contains("was saved for backend \(backendIdentity(of: serverA))"), "\(run)")
                #expect(run.standardError.contains("starting fresh"), "\(run)")
                #expect(run.standardError.contains("kept aside"), "\(run)")
                #expect(PrintedList(run.standardOutput).positions == Array(1...20), "\(run)")
                let aside = sandbox.corruptStateFiles
                #expect(aside.count == 1)
                #expect(aside.first?.lastPathComponent.hasPrefix("infinite-scroll-state.json.corrupt-") == true)
                let asideData = try aside.first.map { try Data(contentsOf: $0) }
                #expect(asideData == saved)
                let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
                #expect(state.backendIdentity == backendIdentity(of: serverB))
                #expect(state.loadedPostIDs == Array(1...20))
            }
        }
    }

    @Test("a state file of garbage bytes is moved aside with a message and the run starts fresh")
    func garbage() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given
            let first = try await sandbox.run(["list", "--pages", "2", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            let garbage = Data([0x00, 0xFF, 0x7B, 0x22, 0x76, 0xC3, 0x28, 0x0A, 0x13, 0x37])
            try garbage.write(to: sandbox.infiniteStateFile)

            // When
            let run = try await sandbox.run(["list", "--no-images"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.standardError.contains("infinite-scroll-state.json is not JSON"), "\(run)")
            #expect(run.standardError.contains("starting fresh"), "\(run)")
            #expect(PrintedList(run.standardOutput).positions == Array(1...20), "\(run)")
            let aside = sandbox.corruptStateFiles
            #expect(aside.count == 1)
            let asideData = try aside.first.map { try Data(contentsOf: $0) }
            #expect(asideData == garbage)
            #expect(try StateJSON.decode(contentsOf: sandbox.infiniteStateFile).loadedPostIDs == Array(1...20))
        }
    }

    @Test("a paged state from a newer PostFeed is moved aside; page starts at page 1")
    func newerVersion() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given: page 3 saved, then the file claims a future schema
            let first = try await sandbox.run(["page", "3", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            var object = try sandbox.stateJSON(sandbox.pagedStateFile)
            object["version"] = 99
            try JSONSerialization.data(withJSONObject: object).write(to: sandbox.pagedStateFile)

            // When
            let run = try await sandbox.run(["page", "--no-images"], against: server)

            // Then
            #expect(run.succeeded, "\(run)")
            #expect(run.standardError.contains("newer PostFeed"), "\(run)")
            #expect(run.outputLines.first == "Page 1 of 13", "\(run)")
            let asideNames = sandbox.corruptStateFiles.map(\.lastPathComponent)
            let allPaginationCopies = asideNames.allSatisfy { $0.hasPrefix("pagination-state.json.corrupt-") }
            #expect(allPaginationCopies, "\(asideNames)")
            #expect(sandbox.corruptStateFiles.count == 1)
        }
    }

    @Test("state show names an unreadable file without moving it")
    func stateShowUnreadable() async throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.stateDirectory, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: sandbox.infiniteStateFile)

        // When
        let run = try await sandbox.run(["state", "show"])

        // Then
        #expect(run.succeeded, "\(run)")
        #expect(run.standardError.contains("infinite-scroll-state.json is not JSON (damaged or cut short)"), "\(run)")
        #expect(!run.standardError.contains("DecodingError"), "no Swift type dump: \(run)")
        #expect(try Data(contentsOf: sandbox.infiniteStateFile) == Data("not json".utf8))
    }

    @Test("state show and list word a damaged file alike", arguments: ["{damaged", "[1, 2]", "{\"version\": 1}"])
    func damagedStateOneWording(contents: String) async throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.stateDirectory, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: sandbox.infiniteStateFile)
        try await withFixtureServer { server in
            let shown = try await sandbox.run(["state", "show"])
            let listed = try await sandbox.run(["list", "--no-images"], against: server)

            #expect(shown.succeeded && listed.succeeded, "\(shown) \(listed)")
            let name = "infinite-scroll-state.json "
            let showFound = shown.errorLines.first { $0.contains(name) }
            let listFound = listed.errorLines.first { $0.contains(name) }
            let showLine = try #require(showFound, "\(shown)")
            let listLine = try #require(listFound, "\(listed)")
            // The words between the file's name and the first ';' are the same.
            let showWords = showLine.components(separatedBy: name).last?.components(separatedBy: ";").first
            let listWords = listLine.components(separatedBy: name).last?.components(separatedBy: ";").first
            #expect(showWords == listWords, "state show: \(showLine)\nlist: \(listLine)")
            #expect(!showLine.contains("The given data"), "\(showLine)")
        }
    }
}
