import Foundation
import SuiteSupport
import PostFeedServer
import Testing

@Suite("RunningFixtureServer lifetime and request counters")
struct ServerLifecycleTests {
    @Test("once withRunning returns, the port is free: a second server starts at the same URL at once, five times over")
    func portFreeAfterStop() async throws {
        var port = try TestPorts.reserve()
        for round in 0..<5 {
            // A request served, so the server had a connection open when it stopped.
            port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: port)) { server in
                let response = try await RawHTTPClient(port: server.port).get("/api/posts")
                #expect(response.status == 200, "round \(round)")
                return server.port
            }
            #expect(TestPorts.isFree(port), "round \(round): port \(port) still bound after withRunning returned")
        }
    }

    @Test("answers while every thread of Swift's cooperative pool is blocked (its tasks run on threads of their own)")
    func answersWhileThePoolIsBlocked() async throws {
        var configuration = FixtureServerConfiguration()
        // The answer is made while the pool is blocked, whenever curl's request arrives.
        configuration.faults.latency = .milliseconds(300)
        try await RunningFixtureServer.withRunning(configuration) { server in
            let curl = ChildProcess()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2",
                              server.baseURL.appendingPathComponent("api/posts/1").absoluteString]
            let output = Pipe()
            curl.standardOutput = output
            try curl.run()
            // Every pool thread blocked for 3 s, longer than curl waits (a test that waits on
            // a child synchronously does this to one thread).
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount) {
                    group.addTask { usleep(3_000_000) }
                }
            }
            await curl.exited()
            let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(curl.terminationStatus == 0 && status == "200", "curl exit \(curl.terminationStatus), status \(status)")
        }
    }

    @Test("binds a free loopback port and reports it in baseURL")
    func port() async throws {
        try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
            #expect(server.port > 0)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            let response = try await RawHTTPClient(port: server.port).get("/api/posts/1")
            #expect(response.status == 200)
        }
    }

    @Test("the port stops accepting connections once withRunning returns")
    func shutsDown() async throws {
        let port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { $0.port }
        let outcome = await RawHTTPClient(port: port).send("GET", "/api/posts/1", timeout: .seconds(2))
        #expect(outcome.response == nil)
    }

    @Test("a body that throws still shuts the server down and rethrows")
    func bodyThrows() async throws {
        struct Expected: Error {}
        var port = 0
        await #expect(throws: Expected.self) {
            try await RunningFixtureServer.withRunning(FixtureServerConfiguration()) { server in
                port = server.port
                throw Expected()
            }
        }
        #expect(port > 0)
        #expect(await RawHTTPClient(port: port).send("GET", "/", timeout: .seconds(2)).response == nil)
    }

    @Test("counts every request, per path and by prefix, and can reset")
    func counters() async throws {
        try await withFixtureServer { server, client throws in
            #expect(server.totalRequestCount == 0)
            _ = try await client.get("/api/posts?page=1")
            _ = try await client.get("/api/posts?page=2")
            _ = try await client.get("/images/img-001.jpg")
            _ = try await client.get("/images/img-002.jpg")
            _ = try await client.get("/nowhere")
            #expect(server.totalRequestCount == 5)
            #expect(server.requestCount(path: "/api/posts") == 2)
            #expect(server.requestCount(path: "/images/img-001.jpg") == 1)
            #expect(server.requestCount(pathPrefix: "/images/") == 2)
            #expect(server.requestCount(path: "/nowhere") == 1)
            #expect(server.requestCountsByPath["/api/posts"] == 2)
            let recorded = server.recordedRequests
            #expect(recorded.map(\.query) == ["page=1", "page=2", nil, nil, nil])
            #expect(recorded.first?.headers["host"] == "127.0.0.1:\(server.port)")
            server.resetRequestCounts()
            #expect(server.totalRequestCount == 0)
            #expect(server.requestCount(path: "/api/posts") == 0)
            #expect(server.recordedRequests.isEmpty)
        }
    }

    @Test("counters stay exact under concurrent requests")
    func concurrentCounting() async throws {
        try await withFixtureServer { server, client throws in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<40 {
                    group.addTask { try await client.get("/api/posts/\(index % 5 + 1)").status }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect(server.totalRequestCount == 40)
            #expect(server.requestCount(path: "/api/posts/1") == 8)
        }
    }

    @Test("startDetached serves until shutdown")
    func detached() async throws {
        let backend = try await RunningFixtureServer.startDetached(FixtureServerConfiguration())
        let port = backend.server.port
        #expect(backend.baseURL.absoluteString == "http://127.0.0.1:\(port)")
        #expect(try await RawHTTPClient(port: port).get("/api/posts/1").status == 200)
        #expect(backend.server.requestCount(path: "/api/posts/1") == 1)
        await backend.shutdown()
        #expect(await RawHTTPClient(port: port).send("GET", "/api/posts/1", timeout: .seconds(2)).response == nil)
        await backend.shutdown()  // a second call is harmless
    }

    @Test("a taken port is a FixtureServerError naming the port")
    func portTaken() async throws {
        try await withFixtureServer { server, _ throws in
            var configuration = FixtureServerConfiguration()
            configuration.port = server.port
            do {
                try await RunningFixtureServer.withRunning(configuration) { _ in }
                Issue.record("a second server bound the same port")
            } catch let error as FixtureServerError {
                #expect(error.message.contains("\(server.port)"))
            }
        }
    }

    @Test("a missing fixtures folder is a FixtureServerError naming the file")
    func missingFixtures() async throws {
        var configuration = FixtureServerConfiguration()
        configuration.fixturesDirectory = URL(fileURLWithPath: "/nonexistent/postfeed-fixtures")
        do {
            try await RunningFixtureServer.withRunning(configuration) { _ in }
            Issue.record("the server started without data")
        } catch let error as FixtureServerError {
            #expect(error.message.contains("/nonexistent/postfeed-fixtures/posts.json"))
        }
    }

    @Test("a malformed posts.json is a FixtureServerError")
    func malformedFixtures() async throws {
        try await withTemporaryFixtures(postsJSON: "{\"not\": \"an array\"}") { directory in
            do {
                try await withFixtureServer({ $0.fixturesDirectory = directory }) { _, _ in }
                Issue.record("the server started with a malformed posts.json")
            } catch let error as FixtureServerError {
                #expect(error.message.contains("posts.json"))
            }
        }
    }

    @Test("the locator finds Fixtures/ and peer-data from #filePath, and honours overrides")
    func locator() throws {
        let fixtures = FixtureLocator.fixturesDirectory()
        #expect(fixtures.lastPathComponent == "Fixtures")
        #expect(FileManager.default.fileExists(atPath: fixtures.appendingPathComponent("posts.json").path))
        #expect(FileManager.default.fileExists(atPath: FixtureLocator.repositoryRoot.appendingPathComponent("Package.swift").path))
        let peer = FixtureLocator.peerDataDirectory()
        #expect(FileManager.default.fileExists(atPath: peer.appendingPathComponent("dummyjson/posts.json").path))
        // A clone in an empty folder serves every flavor: the data sets live inside it.
        let root = FixtureLocator.repositoryRoot.standardizedFileURL.path + "/"
        #expect(peer.standardizedFileURL.path.hasPrefix(root))
        #expect(FileManager.default.fileExists(atPath: peer.appendingPathComponent("jsonplaceholder/LICENSE").path))
        #expect(FileManager.default.fileExists(atPath: peer.appendingPathComponent("dummyjson/LICENSE").path))
        let override = URL(fileURLWithPath: "/tmp/elsewhere")
        #expect(FixtureLocator.fixturesDirectory(override: override) == override)
        #expect(FixtureLocator.peerDataDirectory(override: override) == override)
    }
}

@Suite("RunningFixtureServer.serve", .serialized)
struct ServeTests {
    @Test("serve runs until SIGTERM and reports the signal")
    func stopsOnSignal() async throws {
        let signal = try await RunningFixtureServer.serve(FixtureServerConfiguration()) { server in
            let response = try? await RawHTTPClient(port: server.port).get("/api/posts/1")
            #expect(response?.status == 200)
            kill(getpid(), SIGTERM)
        }
        #expect(signal == SIGTERM)
    }

    @Test("serve returns nil when its task is cancelled")
    func stopsOnCancellation() async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            try await RunningFixtureServer.serve(FixtureServerConfiguration()) { server in
                continuation.yield(server.port)
            }
        }
        var port = 0
        for await started in ports {
            port = started
            break
        }
        #expect(try await RawHTTPClient(port: port).get("/api/posts/1").status == 200)
        task.cancel()
        #expect(try await task.value == nil)
        #expect(await RawHTTPClient(port: port).send("GET", "/api/posts/1", timeout: .seconds(2)).response == nil)
    }
}
