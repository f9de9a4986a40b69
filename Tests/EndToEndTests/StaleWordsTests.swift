import Foundation
import SuiteSupport
import PostFeedServer
import Testing

/// A page out of date says why: offline, or the server's status, not "the network failed".
@Suite("stale pages say why")
struct StaleWordsTests {
    @Test("offline with expired pages says offline; a server answering 500 says so")
    func reasons() async throws {
        let sandbox = try Sandbox()
        // Given: page 1 cached by a server whose pages expire at once
        let port = try await RunningFixtureServer.withRunning(FixtureServerConfiguration(port: TestPorts.reserve(), pageMaxAge: 0)) { server in
            let first = try await sandbox.run(["list", "--no-images"], against: server)
            try #require(first.succeeded, "\(first)")
            return try #require(server.baseURL.port)
        }
        let base = "http://127.0.0.1:\(port)"

        // When: offline
        let offline = try await sandbox.run(["list", "--restart", "--offline", "--no-images", "--base-url", base])

        // Then
        #expect(offline.succeeded, "\(offline)")
        #expect(offline.standardError.contains("offline; some pages come from the cache"), "\(offline)")
        #expect(!offline.standardError.contains("network failed"), "\(offline)")

        // When: the same backend answers 500 to everything
        var failing = FixtureServerConfiguration(port: port, pageMaxAge: 0)
        failing.faults = FaultInjection(serverErrorShare: 1)
        try await RunningFixtureServer.withRunning(failing, waitingForPort: .seconds(15)) { server in
            let run = try await sandbox.run(["list", "--restart", "--no-images"], against: server)
            #expect(run.succeeded, "\(run)")
            #expect(run.standardError.contains("the server failed (HTTP 500)"), "\(run)")
        }
    }
}
