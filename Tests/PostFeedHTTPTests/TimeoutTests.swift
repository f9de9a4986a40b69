import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// Connection failures and the three time limits (connect, total, stall).
    @Suite struct TimeoutTests {
        @Test func aRefusedConnectionIsCannotConnect() async throws {
            // Given a port that is bound but not listening (the kernel answers RST)
            let socket = try BoundSocket()
            let url = try #require(socket.url("/"))

            let error = await expectHTTPError(.cannotConnect) {
                try await withTestClient { try await $0.get(url) }
            }

            #expect(error?.isTransient == true)
            #expect(error?.curlCode != nil)
            #expect(error?.description.contains("127.0.0.1:\(socket.port)") == true)
        }

        @Test func aConnectThatGetsNoAnswerTimesOutAsConnect() async throws {
            // Given a listener whose accept queue is full: Linux drops further SYNs
            let socket = try BoundSocket()
            try socket.listenWithFullBacklog()
            let url = try #require(socket.url("/"))

            // When a client with a 1 s connect timeout tries it
            let error = await expectHTTPError(.timedOut) {
                try await withTestClient({ $0.timeouts.connect = .seconds(1) }) { try await $0.get(url) }
            }

            // Then it is a connect timeout, worth retrying
            #expect(error?.timeout == .connect)
            #expect(error?.isTransient == true)
        }

        @Test func aSlowBodyHitsTheTotalTimeout() async throws {
            // Given 1 MiB at 16 KiB/s (about a minute) and a total limit of 1 s
            let nginx = try currentNginx()
            var request = HTTPRequest(url: nginx.url("/slow/1m.bin"))
            request.timeouts = HTTPTimeouts(connect: .seconds(5), total: .seconds(1), stall: .seconds(30))

            let error = await expectHTTPError(.timedOut) {
                try await withTestClient { try await $0.execute(request) }
            }

            // Then it is the total limit, and not worth retrying
            #expect(error?.timeout == .total)
            #expect(error?.isTransient == false)
        }

        @Test(.enabled(if: NginxServer.hasEchoModule, "needs nginx's echo module for /stall"))
        func aBodyThatStopsHitsTheStallTimeout() async throws {
            // Given a response that sends its headers and a line, then nothing for 30 s
            let nginx = try currentNginx()

            // When the client allows 1 s of silence within a 30 s total
            let error = await expectHTTPError(.timedOut) {
                try await withTestClient({
                    $0.timeouts = HTTPTimeouts(connect: .seconds(5), total: .seconds(30), stall: .seconds(1))
                }) { try await $0.get(nginx.url("/stall")) }
            }

            #expect(error?.timeout == .stall)
        }

        @Test func aConnectionClosedWithoutAnswerIsConnectionLost() async throws {
            // Given a location where nginx closes the connection without a response (444)
            let nginx = try currentNginx()

            let error = await expectHTTPError(.connectionLost) {
                try await withTestClient { try await $0.get(nginx.url("/close")) }
            }

            #expect(error?.isTransient == true)
        }
    }
}
