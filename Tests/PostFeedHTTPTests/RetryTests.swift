import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// The retry policy: what is retried, how long it waits (read from an injected clock,
    /// never from the wall), and what comes back when it gives up.
    @Suite struct RetryTests {
        /// A client that retries up to `attempts` times on `clock`, with jitter fixed at `random`.
        func configure(
            _ configuration: inout HTTPClient.Configuration, clock: RecordingClock, attempts: Int = 3,
            random: Double = 1, maximumRetryAfter: Duration = .seconds(30), now: Date? = nil
        ) {
            configuration.clock = clock
            configuration.retryPolicy = RetryPolicy(
                maximumAttempts: attempts, baseDelay: .milliseconds(200), maximumDelay: .seconds(5),
                maximumRetryAfter: maximumRetryAfter, random: { random }, now: { now ?? Date() })
        }

        @Test func retryAfterAsAnHTTPDateIsMeasuredFromThePolicysClock() async throws {
            // Given Retry-After: Fri, 01 Jan 2100 00:00:00 GMT, read 12.5 s before that date
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/retry-after/future-date")
            let clock = RecordingClock()
            let target = try #require(HTTPDate.parse("Fri, 01 Jan 2100 00:00:00 GMT"))

            let response = try await withTestClient({
                configure(&$0, clock: clock, attempts: 2, now: target.addingTimeInterval(-12.5))
            }) { try await $0.get(nginx.url(path)) }

            // Then exactly that wait, within the default 30 s cap, then the second attempt
            #expect(clock.sleeps == [.milliseconds(12_500)])
            #expect(response.metrics.attempt == 2)
            #expect(await nginx.logLines(containing: path, atLeast: 2).count == 2)
        }

        @Test func retryAfterSecondsIsWaitedAndTheLastResponseReturned() async throws {
            // Given a URL that always answers 503 with Retry-After: 2
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/retry-after/seconds")
            let clock = RecordingClock()

            // When a client that makes 3 attempts fetches it
            let response = try await withTestClient({ configure(&$0, clock: clock) }) {
                try await $0.get(nginx.url(path))
            }

            // Then it waited 2 s twice, asked 3 times, and handed back the last 503
            #expect(clock.sleeps == [.seconds(2), .seconds(2)])
            #expect(response.status == 503)
            #expect(response.metrics.attempt == 3)
            #expect(await nginx.logLines(containing: path, atLeast: 3).count == 3)
        }

        @Test func aRetryAfterEndingPastTheOverallLimitIsNotWaited() async throws {
            // Given a URL that always answers 503 with Retry-After: 2, and a request that may
            // take 3 s in all, its retries and the waits between them included
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/retry-after/seconds")
            let clock = RecordingClock()
            var request = HTTPRequest(url: nginx.url(path))
            request.timeouts = HTTPTimeouts(total: .seconds(3), overall: .seconds(3))

            // When a client that makes up to 3 attempts fetches it
            let response = try await withTestClient({ configure(&$0, clock: clock) }) {
                try await $0.execute(request)
            }

            // Then it waited once (2 s fit in 3 s), not twice (4 s do not), and handed back
            // the second 503 at once
            #expect(clock.sleeps == [.seconds(2)])
            #expect(response.status == 503)
            #expect(response.metrics.attempt == 2)
        }

        @Test func aRetryWhoseBackoffEndsPastTheOverallLimitIsNotMade() async throws {
            // Given a body that stalls, a stall limit of 1 s, 1.19 s for the whole request,
            // and a backoff of 200 ms (jitter fixed at its ceiling)
            let nginx = try currentNginx()
            let clock = RecordingClock()
            var request = HTTPRequest(url: nginx.url("/stall"))
            request.timeouts = HTTPTimeouts(total: .seconds(5), stall: .seconds(1), overall: .milliseconds(1_190))

            // When a client that makes up to 3 attempts fetches it
            let error = await expectHTTPError(.timedOut) {
                try await withTestClient({ configure(&$0, clock: clock) }) { try await $0.execute(request) }
            }

            // Then the stall is not retried: 1 s spent plus 200 ms of backoff is past 1.19 s
            #expect(error?.timeout == .stall)
            #expect(clock.sleeps.isEmpty)
        }

        @Test func retryAfterAsAnHTTPDateIsWaitedUntilThatDate() async throws {
            // Given Retry-After: Fri, 01 Jan 2100 00:00:00 GMT, and a policy that honours
            // waits up to 100 years
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/retry-after/future-date")
            let clock = RecordingClock()
            let target = try #require(HTTPDate.parse("Fri, 01 Jan 2100 00:00:00 GMT"))
            let before = Date()

            let response = try await withTestClient({
                configure(&$0, clock: clock, attempts: 2, maximumRetryAfter: .seconds(100 * 366 * 86_400))
            }) { try await $0.get(nginx.url(path)) }
            let after = Date()

            // Then the one wait ends at that date: between (date − after) and (date − before)
            let sleep = try #require(clock.sleeps.first)
            #expect(clock.sleeps.count == 1)
            #expect(sleep <= .seconds(target.timeIntervalSince(before)) + .seconds(1))
            #expect(sleep >= .seconds(target.timeIntervalSince(after)) - .seconds(1))
            #expect(response.metrics.attempt == 2)
        }

        @Test func retryAfterADateInThePastIsNoWait() async throws {
            let nginx = try currentNginx()
            let clock = RecordingClock()

            let response = try await withTestClient({ configure(&$0, clock: clock, attempts: 2) }) {
                try await $0.get(nginx.url("/retry-after/past-date"))
            }

            #expect(clock.sleeps == [.zero])
            #expect(response.metrics.attempt == 2)
        }

        @Test func retryAfterLongerThanAllowedStopsRetrying() async throws {
            // Given a Retry-After decades away and the default 30 s cap
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/retry-after/future-date")
            let clock = RecordingClock()

            let response = try await withTestClient({ configure(&$0, clock: clock) }) {
                try await $0.get(nginx.url(path))
            }

            // Then the 503 comes straight back: retrying sooner would only be refused again
            #expect(clock.sleeps.isEmpty)
            #expect(response.status == 503)
            #expect(response.metrics.attempt == 1)
            #expect(await nginx.logLines(containing: path).count == 1)
        }

        @Test func withoutRetryAfterTheBackoffDoublesWithJitter() async throws {
            // Given a plain 503 and jitter fixed at one half
            let nginx = try currentNginx()
            let clock = RecordingClock()

            let response = try await withTestClient({ configure(&$0, clock: clock, attempts: 4, random: 0.5) }) {
                try await $0.get(nginx.url("/status/503"))
            }

            // Then the waits are half of 200, 400 and 800 ms
            #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
            #expect(response.metrics.attempt == 4)
        }

        @Test func a404IsNotRetried() async throws {
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/status/404")
            let clock = RecordingClock()

            let response = try await withTestClient({ configure(&$0, clock: clock) }) {
                try await $0.get(nginx.url(path))
            }

            #expect(response.status == 404)
            #expect(response.metrics.attempt == 1)
            #expect(clock.sleeps.isEmpty)
            #expect(await nginx.logLines(containing: path).count == 1)
        }

        @Test func aPOSTIsNotRetried() async throws {
            // Given a POST to a URL that answers 503
            let nginx = try currentNginx()
            let path = nginx.uniquePath("/status/503")
            let clock = RecordingClock()
            let request = HTTPRequest(method: .post, url: nginx.url(path), body: Data("once".utf8))

            let response = try await withTestClient({ configure(&$0, clock: clock) }) {
                try await $0.execute(request)
            }

            // Then it was sent once: a POST may not be idempotent
            #expect(response.status == 503)
            #expect(response.metrics.attempt == 1)
            #expect(clock.sleeps.isEmpty)
            let lines = await nginx.logLines(containing: path)
            #expect(lines.map(\.method) == ["POST"])
        }

        @Test func aRefusedConnectionIsRetriedThenThrown() async throws {
            // Given a port that refuses connections
            let socket = try BoundSocket()
            let url = try #require(socket.url("/"))
            let clock = RecordingClock()

            // When a client with 3 attempts tries it
            await expectHTTPError(.cannotConnect) {
                try await withTestClient({ configure(&$0, clock: clock, random: 1) }) { try await $0.get(url) }
            }

            // Then it backed off twice before giving up with the connection error
            #expect(clock.sleeps == [.milliseconds(200), .milliseconds(400)])
        }
    
        @Test func aNameThatDoesNotResolveIsNotRetried() async throws {
            // Given a host under .invalid, which never resolves (RFC 6761)
            let url = try #require(URL(string: "http://no-such-host.invalid/image.png"))
            let clock = RecordingClock()

            // When a client with 3 attempts asks for it
            var thrown: HTTPClientError?
            do {
                _ = try await withTestClient({ configure(&$0, clock: clock) }) { try await $0.get(url) }
            } catch let error as HTTPClientError {
                thrown = error
            }

            // Then one attempt and no wait: a name that did not resolve does not resolve a
            // moment later (curl's own --retry leaves it alone too)
            let error = try #require(thrown)
            #expect(error.code == .cannotResolve, "\(error)")
            #expect(clock.sleeps.isEmpty, "\(error)")
            #expect(!error.isTransient)
            #expect(error.description.contains("no-such-host.invalid did not resolve"), "\(error)")
        }
    }
}
