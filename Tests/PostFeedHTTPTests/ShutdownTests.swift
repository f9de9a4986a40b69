import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// `shutdown()` and the scoped `withHTTPClient`.
    @Suite struct ShutdownTests {
        @Test func shutdownFailsRunningAndQueuedRequests() async throws {
            // Given one connection busy with a slow body and two requests queued behind it
            let nginx = try currentNginx()
            let client = try HTTPClient(configuration: testConfiguration { $0.maximumConnections = 1 })
            let running = Task { try await client.get(nginx.url("/slow/1m.bin")) }
            try await Task.sleep(for: .milliseconds(200))
            let queued = (0..<2).map { index in
                Task { try await client.get(nginx.url("/files/hello.txt?queued=\(index)")) }
            }
            try await Task.sleep(for: .milliseconds(100))

            // When the client shuts down
            await client.shutdown()

            // Then all three fail with .shutdown, and so does anything asked later
            await expectHTTPError(.shutdown) { try await running.value }
            for task in queued {
                await expectHTTPError(.shutdown) { try await task.value }
            }
            await expectHTTPError(.shutdown) { try await client.get(nginx.url("/files/hello.txt")) }
        }

        @Test func shutdownTwiceIsHarmless() async throws {
            let client = try HTTPClient(configuration: testConfiguration())
            await client.shutdown()
            await client.shutdown()
        }

        @Test func withHTTPClientReturnsTheBodysValue() async throws {
            let nginx = try currentNginx()
            let body = try await HTTPClient.withHTTPClient(configuration: testConfiguration()) {
                try await $0.get(nginx.url("/files/hello.txt")).body
            }
            #expect(body == TestFiles.hello)
        }
    }
}

extension NginxSuite.ShutdownTests {
    /// Submissions and cancellations racing with shutdown: every request ends as a
    /// response, `.cancelled` or `.shutdown`, and nothing touches the freed multi handle
    /// (a wakeup after cleanup used to be possible; under ASan or bad luck it crashed).
    @Test func shutdownRacingWithSubmissionsAndCancellations() async throws {
        let nginx = try currentNginx()
        for round in 0..<30 {
            let client = try HTTPClient(configuration: testConfiguration { $0.maximumConnections = 4 })
            let tasks = (0..<20).map { index in
                Task { () -> String in
                    do {
                        return String(try await client.get(nginx.url("/files/1k.bin?r=\(round)&i=\(index)")).status)
                    } catch let error as HTTPClientError {
                        return error.code.description
                    } catch {
                        return "\(error)"
                    }
                }
            }
            await Task.yield()
            async let shutdown: Void = client.shutdown()
            for (index, task) in tasks.enumerated() where index.isMultiple(of: 2) { task.cancel() }
            await shutdown
            var outcomes: Set<String> = []
            for task in tasks { outcomes.insert(await task.value) }
            let allowed: Set<String> = [
                "200", HTTPClientError.Code.cancelled.description, HTTPClientError.Code.shutdown.description,
            ]
            #expect(outcomes.isSubset(of: allowed), "round \(round): \(outcomes)")
        }
    }
}

extension NginxSuite.ShutdownTests {
    /// The engine thread carries its name into the kernel, where `top -H`, `perf` and
    /// `gdb` read it; Foundation's `Thread.name` alone does not put it there on Linux.
    @Test func theEngineThreadIsNamedInTheKernel() async throws {
        let nginx = try currentNginx()
        try await HTTPClient.withHTTPClient(configuration: testConfiguration()) { client in
            _ = try await client.get(nginx.url("/files/hello.txt"))
            #expect(kernelThreadNames().contains("postfeed-curl"))
        }
    }

    private func kernelThreadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
