import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// Cancelling the calling task cancels the transfer, wherever it is.
    @Suite struct CancellationTests {
        @Test func cancellingMidBodyThrowsCancelledAndTheClientKeepsWorking() async throws {
            // Given a 1 MiB body streaming at 16 KiB/s (about a minute)
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/slow/1m.bin")
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await withTestClient { client in
                let task = Task { try await client.download(HTTPRequest(url: nginx.url(path)), into: folder) }
                // (the body is seen arriving, rather than guessed at after a sleep: on busy
                // cores the request may not have reached nginx within any fixed time)
                #expect(await bodyArrives(in: folder))

                // When the task is cancelled while the body streams
                task.cancel()

                // Then the call throws .cancelled, long before the body could be complete…
                await expectHTTPError(.cancelled) { try await task.value }
                let line = try #require(await nginx.logLines(containing: path, waitingUpTo: .seconds(30)).first)
                #expect(line.bytesSent < 1024 * 1024)

                // …and the same client serves the next request
                let next = try await client.get(nginx.url("/files/hello.txt"))
                #expect(next.body == TestFiles.hello)
            }
        }

        @Test func cancellingAQueuedRequestLeavesTheRunningOneAlone() async throws {
            // Given one connection, held busy, and a second request queued behind it
            let nginx = try currentNginx()
            let held = try HeldResponseServer()
            try await withTestClient({ $0.maximumConnections = 1 }) { client in
                let running = Task { try await client.get(held.url) }
                await held.waitForRequest()
                let queued = Task { try await client.get(nginx.url("/files/hello.txt")) }
                try await Task.sleep(for: .milliseconds(100))

                // When the queued one is cancelled
                queued.cancel()

                // Then it throws .cancelled, and the running one completes once answered
                await expectHTTPError(.cancelled) { try await queued.value }
                held.release()
                #expect(try await running.value.body == Data("held".utf8))
            }
        }

        @Test func aTaskCancelledBeforeTheCallNeverStartsIt() async throws {
            let nginx = try currentNginx()
            try await withTestClient { client in
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await client.get(nginx.url("/files/hello.txt"))
                }
                await expectHTTPError(.cancelled) { try await task.value }
            }
        }

        @Test func cancellingManyTransfersAtOnce() async throws {
            // Given 200 slow transfers on 16 connections (the rest queued)
            let nginx = try currentNginx()
            try await withTestClient({ $0.maximumConnections = 16 }) { client in
                let group = Task {
                    await withTaskGroup(of: String.self) { group in
                        for index in 0..<200 {
                            let url = nginx.url("/slow/100k.bin?i=\(index)")
                            group.addTask {
                                do {
                                    _ = try await client.get(url)
                                    return "completed"
                                } catch let error as HTTPClientError {
                                    return error.code.description
                                } catch {
                                    return "\(error)"
                                }
                            }
                        }
                        return await group.reduce(into: [String]()) { $0.append($1) }
                    }
                }
                try await Task.sleep(for: .milliseconds(500))

                // When they are all cancelled
                group.cancel()

                // Then every one throws .cancelled, and the client still works
                let codes = await group.value
                #expect(codes.count == 200)
                let allCancelled = codes.allSatisfy { $0 == HTTPClientError.Code.cancelled.description }
                #expect(allCancelled, "\(Set(codes))")
                #expect(try await client.get(nginx.url("/files/hello.txt")).status == 200)
            }
        }
    }
}

/// Whether a partial download in `folder` holds at least one byte within 30 s.
private func bodyArrives(in folder: URL) async -> Bool {
    for _ in 0..<600 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            if let size = attributes?[.size] as? Int, size > 0 { return true }
        }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}
