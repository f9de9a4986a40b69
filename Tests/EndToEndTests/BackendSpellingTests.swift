import Foundation
import PostFeedServer
import Testing

/// Issue 29, items 10 and 11, through the binary: the place belongs to one backend however
/// its URL is spelled, and to one account.
@Suite("the place across spellings of the base URL and across accounts")
struct BackendSpellingTests {
    @Test("--base-url HTTP://127.0.0.1:PORT/ continues the place of http://127.0.0.1:PORT")
    func uppercaseSchemeContinuesThePlace() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // Given posts 1–20 read at the usual spelling
            let first = try await sandbox.run(["list", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")

            // When the next run types the scheme in capitals, with a trailing slash
            let port = try #require(server.baseURL.port)
            let second = try await sandbox.run(["list", "--no-images", "--base-url", "HTTP://127.0.0.1:\(port)/"])

            // Then it continues at post 21 and sets nothing aside
            #expect(second.succeeded, "\(second)")
            #expect(PrintedList(second.standardOutput).positions == Array(21...40), "\(second)")
            #expect(!second.standardError.contains("saved for backend"), "\(second)")
        }
    }

    @Test("another account on the same backend does not continue this account's place")
    func accountsKeepTheirOwnPlaces() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            let port = try #require(server.baseURL.port)
            let me = "http://me:secret@127.0.0.1:\(port)"
            let other = "http://other:pw@127.0.0.1:\(port)"
            // Given posts 1–40 read as one account
            let mine = try await sandbox.run(["list", "--pages", "2", "--no-images", "--base-url", me])
            try #require(mine.succeeded, "\(mine)")

            // When another account lists
            let theirs = try await sandbox.run(["list", "--no-images", "--base-url", other])

            // Then it starts at post 1, and no output holds either password
            #expect(theirs.succeeded, "\(theirs)")
            #expect(PrintedList(theirs.standardOutput).positions == Array(1...20), "\(theirs)")
            #expect(!(theirs.standardOutput + theirs.standardError).contains("secret"), "\(theirs)")
            let state = String(decoding: try Data(contentsOf: sandbox.infiniteStateFile), as: UTF8.self)
            #expect(!state.contains("secret") && !state.contains("pw@") && !state.contains("other:"), "\(state)")
        }
    }
}
