import Foundation
import PostFeedServer
import Testing

@Suite("postfeed serve and the built-in backend")
struct ServeAndBuiltInBackendTests {
    @Test("serve --port 0 prints its URL, serves pages, and exits 0 on SIGTERM")
    func serveUntilTerminated() async throws {
        let sandbox = try Sandbox()
        let server = try PostfeedProcess.start(["serve", "--port", "0"], in: sandbox.directory)

        // When: it says where it listens
        let line = await server.waitForOutputLine { $0.contains("serving") && $0.contains("http://") }
        guard let line else {
            server.send(SIGKILL)
            let result = await server.waitForExit()
            Issue.record("serve printed no URL line: \(result)")
            return
        }
        let match = line.firstMatch(of: /(http:\/\/127\.0\.0\.1:(\d+))/)
        let printedURL = match.map { String($0.1) }
        let url = try #require(printedURL, "\(line)")
        let port = match.flatMap { Int($0.2) }
        #expect((port ?? 0) > 0, "\(line)")

        // Then: a client run can read from it
        let page = try await sandbox.run(["page", "2", "--no-images", "--base-url", url])
        #expect(page.succeeded, "\(page)")
        #expect(PrintedList(page.standardOutput).ids == Array(21...40), "\(page)")

        // When
        server.send(SIGTERM)
        let result = await server.waitForExit()

        // Then
        #expect(result.succeeded, "\(result)")
    }

    @Test("serve with a bad flag fails before listening")
    func serveBadFlag() async throws {
        let sandbox = try Sandbox()

        // When
        let run = try await PostfeedProcess.run(["serve", "--error-share", "2"], in: sandbox.directory)

        // Then
        #expect(run.failed, "\(run)")
        #expect(run.errorMessage?.contains("--error-share 2") == true, "\(run)")
    }

    @Test("serve on a port in use says so in plain words")
    func servePortInUse() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer { server in
            // When
            let run = try await PostfeedProcess.run(["serve", "--port", "\(server.port)"], in: sandbox.directory)

            // Then: no socket-call dump, and what to do
            #expect(run.failed, "\(run)")
            #expect(run.errorMessage?.contains("port \(server.port) is already in use; pick another port, or 0") == true, "\(run)")
            #expect(!run.standardError.contains("bind(descriptor"), "\(run)")
        }
    }

    @Test("without --base-url the built-in fixture backend serves, and the place survives its port")
    func builtInBackend() async throws {
        let sandbox = try Sandbox()

        // When: no backend flag at all
        let first = try await sandbox.run(["list", "--no-images"])

        // Then
        #expect(first.succeeded, "\(first)")
        #expect(PrintedList(first.standardOutput).ids == Array(1...20), "\(first)")
        let state = try StateJSON.decode(contentsOf: sandbox.infiniteStateFile)
        #expect(state.backendIdentity == "postfeed built-in fixture backend")

        // When: again (possibly on another port, if 46969 is taken)
        let second = try await sandbox.run(["list"])

        // Then: it continues, with images
        #expect(second.succeeded, "\(second)")
        let printed = PrintedList(second.standardOutput)
        #expect(printed.ids == Array(21...40), "\(second)")
        #expect(printed.imageLines.count == 20, "\(second)")
        #expect(!sandbox.cacheEntries(in: sandbox.imageCacheDirectory).isEmpty)
    }

    @Test("the built-in backend speaks the convention --api names")
    func builtInBackendOtherConvention() async throws {
        let sandbox = try Sandbox()

        // When
        let run = try await sandbox.run(["page", "2", "--api", "json-server", "--page-size", "10", "--no-images", "--json"])

        // Then: JSONPlaceholder-style posts, ten a page
        #expect(run.succeeded, "\(run)")
        let output = try ListJSON.decode(run.standardOutput, from: "page 2 --api json-server --json")
        #expect(output.page == 2)
        #expect(output.posts.map(\.position) == Array(11...20))
        #expect(output.posts.count == 10)
        let state = try StateJSON.decode(contentsOf: sandbox.pagedStateFile)
        #expect(state.backendIdentity.hasPrefix("json-server"))
    }
}
