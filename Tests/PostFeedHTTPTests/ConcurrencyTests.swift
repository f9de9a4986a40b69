import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// Many requests at once over a bounded set of connections, and the priority queue.
    @Suite struct ConcurrencyTests {
        @Test func aThousandConcurrentRequestsShareAtMostTheConnectionCap() async throws {
            // Given a client capped at 8 connections and a run marker for nginx's connection log
            let nginx = try currentNginx()
            let run = UUID().uuidString
            let hello = TestFiles.hello
            let kilobyte = try #require(TestFiles.binary(named: "1k.bin"))

            // When 1000 requests start at once
            let bodiesMatched = try await withTestClient({
                $0.maximumConnections = 8
                $0.maximumConnectionsPerHost = 8
            }) { client in
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<1000 {
                        let file = index.isMultiple(of: 2) ? "hello.txt" : "1k.bin"
                        let url = nginx.url("/conn/\(file)?run=\(run)&i=\(index)")
                        group.addTask {
                            let body = try await client.get(url).requireSuccess().body
                            return body == (index.isMultiple(of: 2) ? hello : kilobyte)
                        }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
            }

            // Then every one got its own body, over no more than 8 TCP connections
            #expect(bodiesMatched == 1000)
            let lines = await nginx.logLines(containing: run, atLeast: 1000, log: "connections.log")
            #expect(lines.count == 1000)
            let connections = Set(lines.map(\.connection))
            #expect(connections.count <= 8)
            #expect(connections.count >= 1)
        }

        /// The engine thread skips `curl_multi_wakeup` for a caller that finds it awake; a
        /// request that came in just as it went to sleep must still wake it, not wait in
        /// the inbox for `curl_multi_poll`'s 1-second timeout.
        @Test func requestsArrivingWhileTheEngineSleepsAreNotLeftWaiting() async throws {
            let nginx = try currentNginx()
            let clock = ContinuousClock()
            try await withTestClient { client in
                // One at a time, each after an idle gap: the engine is asleep in poll.
                var slowest = Duration.zero
                for index in 0..<12 {
                    try await Task.sleep(for: .milliseconds(index.isMultiple(of: 2) ? 30 : 2))
                    let started = clock.now
                    _ = try await client.get(nginx.url("/files/hello.txt?sleeping=\(index)")).requireSuccess()
                    slowest = max(slowest, started.duration(to: clock.now))
                }
                // And in bursts from many tasks at once, racing the engine's sleep check.
                for round in 0..<20 {
                    let started = clock.now
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<8 {
                            group.addTask { _ = try await client.get(nginx.url("/files/hello.txt?burst=\(round)-\(index)")).requireSuccess() }
                        }
                        try await group.waitForAll()
                    }
                    slowest = max(slowest, started.duration(to: clock.now))
                }
                // Not a timing target: a lost wakeup costs a whole second; loopback requests
                // take milliseconds, so half a second leaves room for a loaded machine.
                #expect(slowest < .milliseconds(500), "a request waited \(slowest): a wakeup was lost")
            }
        }

        @Test func thePerHostCapBoundsConnectionsToOneHost() async throws {
            let nginx = try currentNginx()
            let run = UUID().uuidString

            try await withTestClient({
                $0.maximumConnections = 64
                $0.maximumConnectionsPerHost = 3
            }) { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<200 {
                        let url = nginx.url("/conn/hello.txt?run=\(run)&i=\(index)")
                        group.addTask { _ = try await client.get(url).requireSuccess() }
                    }
                    try await group.waitForAll()
                }
            }

            let lines = await nginx.logLines(containing: run, atLeast: 200, log: "connections.log")
            #expect(lines.count == 200)
            #expect(Set(lines.map(\.connection)).count <= 3)
        }

        /// nginx under another name: its own origin to the client (own cap, own queue).
        private func otherOrigin(_ nginx: NginxServer, _ path: String) throws -> URL {
            try #require(URL(string: "http://localhost:\(nginx.port)\(path)"))
        }

        @Test(.timeLimit(.minutes(1)))
        func requestsQueuedForAFullHostDoNotHoldBackAnotherHost() async throws {
            // Given one connection per host, the held server's taken, and three more
            // requests to it queued behind
            let nginx = try currentNginx()
            let held = try HeldResponseServer()
            try await withTestClient({
                $0.maximumConnections = 8
                $0.maximumConnectionsPerHost = 1
            }) { client in
                let blocker = Task { try await client.get(held.url) }
                await held.waitForRequest()
                let queuedBehind = (1...3).map { index in
                    Task { try await client.get(held.url.appending(queryItems: [URLQueryItem(name: "i", value: "\(index)")])) }
                }
                try await Task.sleep(for: .milliseconds(100))

                // When another host is asked for something
                let other = try await client.get(otherOrigin(nginx, "/files/hello.txt")).requireSuccess()

                // Then it is served while the first host is still busy
                #expect(other.body == TestFiles.hello)
                queuedBehind.forEach { $0.cancel() }
                for task in queuedBehind {
                    await expectHTTPError(.cancelled) { try await task.value }
                }
                held.release()
                #expect(try await blocker.value.body == Data("held".utf8))
            }
        }

        @Test func queuedRequestsStartInArrivalOrderAcrossHostsAfterHigherPriorities() async throws {
            // When low-priority requests to two hosts queue up behind the only connection,
            // interleaved, and then a high one to the second host
            let names = try await servedOrder([
                ("a1", "127.0.0.1", .low), ("b1", "localhost", .low), ("b2", "localhost", .low),
                ("a2", "127.0.0.1", .low), ("b3", "localhost", .high),
            ])

            // Then nginx served the high one first, then the rest in the order they came
            #expect(names == ["b3", "a1", "b1", "b2", "a2"])
        }

        @Test func aLaterHighPriorityRequestOvertakesQueuedLowOnes() async throws {
            // When three low-priority requests queue up behind the only connection, then a high one
            let names = try await servedOrder([
                ("low1", "127.0.0.1", .low), ("low2", "127.0.0.1", .low), ("low3", "127.0.0.1", .low),
                ("high", "127.0.0.1", .high),
            ])

            // Then nginx served the high one first and the low ones after it, in their order
            #expect(names == ["high", "low1", "low2", "low3"])
        }

        /// Holds a client's only connection busy, queues `requests` (to nginx under `host`)
        /// 100 ms apart so their arrival order is theirs, releases the connection, and returns
        /// their names in the order nginx served them. Read from nginx's log, not from the
        /// callers' completions: on one connection the transfers run one after another, but
        /// their callers' tasks may resume in any order when responses arrive microseconds apart.
        private func servedOrder(_ requests: [(name: String, host: String, priority: HTTPPriority)]) async throws -> [String] {
            let nginx = try currentNginx()
            let held = try HeldResponseServer()
            let run = UUID().uuidString
            try await withTestClient({ $0.maximumConnections = 1 }) { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { _ = try await client.get(held.url).requireSuccess() }
                    await held.waitForRequest()
                    for request in requests {
                        let url = try #require(
                            URL(string: "http://\(request.host):\(nginx.port)/files/hello.txt?run=\(run)&name=\(request.name)"))
                        group.addTask { _ = try await client.get(url, priority: request.priority).requireSuccess() }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    held.release()
                    try await group.waitForAll()
                }
            }
            let lines = await nginx.logLines(containing: run, atLeast: requests.count)
            return lines.compactMap { $0.uri.split(separator: "=").last.map(String.init) }
        }
    }
}
