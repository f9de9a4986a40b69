import Foundation

extension HTTPClient {
    /// Everything a client is built with. The defaults suit a feed reader talking to one
    /// or a few hosts.
    public struct Configuration: Sendable {
        /// Connect 10 s, total 60 s, stall 15 s (under 1 byte/s).
        public var timeouts: HTTPTimeouts
        /// Redirects followed before failing with `.tooManyRedirects`. Default 5; 0 disables following.
        public var maximumRedirects: Int
        /// Bodies larger than this abort while streaming with `.bodyTooLarge`. Default 50 MiB.
        public var maximumBodySize: Int
        /// Connections (and transfers in flight) across all hosts. Default 64.
        public var maximumConnections: Int
        /// Connections (and HTTP/1.1 transfers in flight) to one host. Default 16.
        public var maximumConnectionsPerHost: Int
        /// Send `Accept-Encoding` with every encoding libcurl supports and decode the body.
        public var acceptEncoding: Bool
        /// Prefer HTTP/2 over TLS, multiplexed on one connection. Default on.
        public var preferHTTP2: Bool
        public var userAgent: String
        public var retryPolicy: RetryPolicy
        /// The clock retries sleep on; inject one in tests so they do not wait.
        public var clock: any Clock<Duration>

        public init(
            timeouts: HTTPTimeouts = HTTPTimeouts(),
            maximumRedirects: Int = 5,
            maximumBodySize: Int = 50 * 1024 * 1024,
            maximumConnections: Int = 64,
            maximumConnectionsPerHost: Int = 16,
            acceptEncoding: Bool = true,
            preferHTTP2: Bool = true,
            userAgent: String = "PostFeed/1.0",
            retryPolicy: RetryPolicy = RetryPolicy(),
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.timeouts = timeouts
            self.maximumRedirects = maximumRedirects
            self.maximumBodySize = maximumBodySize
            self.maximumConnections = maximumConnections
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.acceptEncoding = acceptEncoding
            self.preferHTTP2 = preferHTTP2
            self.userAgent = userAgent
            self.retryPolicy = retryPolicy
            self.clock = clock
        }
    }
}
