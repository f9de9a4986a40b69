import Foundation
import PostFeedServer
import Testing

/// `--timeout SECONDS` (and a backend file's `timeout`) bound every request.
@Suite("--timeout")
struct TimeoutOptionTests {
    @Test("a backend slower than --timeout fails with a timeout naming the URL; the default waits")
    func slowBackend() async throws {
        let sandbox = try Sandbox()
        try await withFixtureServer(faults: FaultInjection(latency: .seconds(3))) { server in
            // When
            let bounded = try await sandbox.run(["page", "2", "--no-images", "--timeout", "1"], against: server)

            // Then
            #expect(bounded.failed, "\(bounded)")
            #expect(bounded.errorMessage?.contains("timeout reached") == true, "\(bounded)")
            #expect(bounded.errorMessage?.contains("/api/posts?page=2") == true, "\(bounded)")

            // And a backend file's timeout does the same
            let file = sandbox.directory.appendingPathComponent("backend.json")
            try Data(#"{"preset": "postfeed", "baseURL": "\#(server.baseURL.absoluteString)", "timeout": 1}"#.utf8).write(to: file)
            let fromFile = try await sandbox.run(["page", "3", "--no-images", "--backend", file.path])
            #expect(fromFile.failed && fromFile.errorMessage?.contains("timeout reached") == true, "\(fromFile)")

            // While without it the same page loads
            let patient = try await sandbox.run(["page", "2", "--no-images"], against: server)
            #expect(patient.succeeded, "\(patient)")
        }
    }

    @Test("a timeout that is no number of seconds is refused", arguments: [["--timeout", "0"], ["--timeout", "-3"], ["--timeout", "nan"]])
    func badValues(arguments: [String]) async throws {
        let sandbox = try Sandbox()
        let run = try await sandbox.run(["list"] + arguments)
        #expect(run.exitedNormally && run.status == 64, "\(run)")
    }
}
