import Foundation

extension HTTPClient {
    /// Everything a client is built with. The defaults suit a feed reader talking to one
    /// or a few hosts.
    public struct Configuration: Sendable {
        /// Connect 10 s, total 60 s, stall 15 s (nothing received for that long).
        public var timeouts: HTTPTimeouts
        /// Redirects followed before failing with `.tooManyRedirects`. Default 5; 0 disables following.
        public var maximumRedirects: Int
        /// Bodies larger than this abort while streaming with `.bodyTooLarge`. Default 50 MiB.
        public var maximumBodySize: Int
        /// Connections, and transfers in flight, across all hosts. Default 64. Requests
        /// beyond it wait in the client's queue (highest priority first, then in the order
        /// they came), not in libcurl.
        public var maximumConnections: Int
        /// Connections to one host (`scheme://host:port` as written), and transfers in
        /// flight to it: over HTTP/2 these are streams sharing one connection, and the cap
        /// still bounds them. Default 16.
        public var maximumConnectionsPerHost: Int
        /// Send `Accept-Encoding` with every encoding libcurl supports and decode the body.
        public var acceptEncoding: Bool
        /// Prefer HTTP/2 over TLS (offered through ALPN), with concurrent requests to one
        /// host multiplexed as streams on one connection. Default on. Cleartext `http://`
        /// always speaks HTTP/1.1.
        public var preferHTTP2: Bool
        /// A PEM file of certificate authorities to trust instead of the system's bundle
        /// (`CURLOPT_CAINFO`): a private CA, or a test server's self-signed certificate.
        /// Default `nil`, the system's bundle. Verification of the peer and its host name
        /// stays on either way.
        public var trustedCertificatesFile: String?
        /// The `User-Agent` header of every request. Default `PostFeed/1.0`.
        public var userAgent: String
        /// Idle memory kept for receiving response bodies, in bytes. Default 16 MiB.
        ///
        /// A body's `Data` owns a buffer from this pool and gives it back when released, so
        /// the next body lands in memory already mapped instead of fresh pages (most of the
        /// cost of a fetch over loopback). At most this much sits idle; `0` frees every
        /// buffer when released. A body's buffer is at most 25 % larger than the body when
        /// the server announces its length.
        public var pooledBodyMemory: Int
        /// Which failures of idempotent requests are tried again, how often and after how
        /// long. Default: 3 attempts with exponential backoff and full jitter, honouring
        /// `Retry-After`; ``RetryPolicy/never`` turns retries off.
        public var retryPolicy: RetryPolicy
        /// The clock retries sleep on; inject one in tests so they do not wait.
        public var clock: any Clock<Duration>
        /// Which proxy requests go through. Default: the proxy variables of the process's
        /// environment (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`; see
        /// ``HTTPProxySettings``); ``HTTPProxySettings/direct`` ignores them.
        public var proxy: HTTPProxySettings

        /// Every parameter defaults to the value documented on its property. ``HTTPClient``
        /// treats a connection cap below 1 as 1.
        public init(
            timeouts: HTTPTimeouts = HTTPTimeouts(),
            maximumRedirects: Int = 5,
            maximumBodySize: Int = 50 * 1024 * 1024,
            maximumConnections: Int = 64,
            maximumConnectionsPerHost: Int = 16,
            acceptEncoding: Bool = true,
            preferHTTP2: Bool = true,
            trustedCertificatesFile: String? = nil,
            userAgent: String = "PostFeed/1.0",
            pooledBodyMemory: Int = 16 * 1024 * 1024,
            retryPolicy: RetryPolicy = RetryPolicy(),
            clock: any Clock<Duration> = ContinuousClock(),
            proxy: HTTPProxySettings = .environment()
        ) {
            self.timeouts = timeouts
            self.maximumRedirects = maximumRedirects
            self.maximumBodySize = maximumBodySize
            self.maximumConnections = maximumConnections
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.acceptEncoding = acceptEncoding
            self.preferHTTP2 = preferHTTP2
            self.trustedCertificatesFile = trustedCertificatesFile
            self.userAgent = userAgent
            self.pooledBodyMemory = pooledBodyMemory
            self.retryPolicy = retryPolicy
            self.clock = clock
            self.proxy = proxy
        }
    }
}
