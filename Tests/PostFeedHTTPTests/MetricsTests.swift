import Foundation
import PostFeedHTTP
import Testing

extension NginxSuite {
    /// `HTTPMetrics`, read from curl after each transfer.
    @Suite struct MetricsTests {
        @Test func metricsDescribeTheTransferAndConnectionReuse() async throws {
            // Given one client and two requests to the same host, one after the other
            let nginx = try currentNginx()
            let (first, second) = try await withTestClient { client in
                (try await client.get(nginx.url("/files/100k.bin")), try await client.get(nginx.url("/files/1k.bin")))
            }

            // Then the first opened a connection and the second reused it
            #expect(!first.metrics.reusedConnection)
            #expect(second.metrics.reusedConnection)
            #expect(first.metrics.bytesReceived == 100 * 1024)
            #expect(second.metrics.bytesReceived == 1024)
            #expect(first.metrics.total > .zero)
            #expect(second.metrics.total > .zero)
            #expect(first.metrics.timeToFirstByte > .zero)
            #expect(first.metrics.timeToFirstByte <= first.metrics.total)
            #expect(first.metrics.httpVersion == "1.1")
            #expect(first.metrics.tlsHandshake == .zero)
            #expect(first.metrics.attempt == 1)
            #expect(first.metrics.redirectCount == 0)
        }
    }
}
