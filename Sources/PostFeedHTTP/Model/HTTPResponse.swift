import Foundation

/// A complete response held in memory.
public struct HTTPResponse: Sendable {
    /// The URL that was requested.
    public var requestURL: URL
    /// The URL that answered, after redirects.
    public var url: URL
    /// The status code of the final response, after redirects: `200`, `304`, `404`…
    public var status: Int
    /// The final response's header fields; those of redirects and `100 Continue` are dropped.
    public var headers: HTTPHeaders
    /// The body, decoded when ``HTTPClient/Configuration/acceptEncoding`` is on. Empty for
    /// `HEAD` and `304`.
    public var body: Data
    /// Timings and connection facts of the attempt that produced this response.
    public var metrics: HTTPMetrics

    /// For other ``HTTPLoading`` implementations (a test double, another transport).
    public init(requestURL: URL, url: URL, status: Int, headers: HTTPHeaders, body: Data, metrics: HTTPMetrics) {
        self.requestURL = requestURL
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.metrics = metrics
    }

    /// `2xx`.
    public var isSuccess: Bool { (200..<300).contains(status) }
    /// `304 Not Modified`: the cached copy is still good. A result, not an error.
    public var isNotModified: Bool { status == 304 }

    /// Returns `self` for `2xx` and `304`, and throws ``HTTPClientError`` with code
    /// `.httpStatus` otherwise.
    @discardableResult
    public func requireSuccess() throws(HTTPClientError) -> HTTPResponse {
        guard isSuccess || isNotModified else {
            throw HTTPClientError.status(status, url: requestURL, body: body)
        }
        return self
    }
}

/// A response whose body was streamed to a file instead of memory.
///
/// The caller owns ``fileURL`` and must move it into place or delete it.
public struct HTTPDownload: Sendable {
    /// The URL asked for.
    public var requestURL: URL
    /// The URL that answered, after redirects.
    public var url: URL
    /// The status code of the final response, after redirects: `200`, `304`, `404`…
    public var status: Int
    /// The final response's header fields; those of redirects and `100 Continue` are dropped.
    public var headers: HTTPHeaders
    /// The body, in a temporary file inside the folder passed to `download`. Empty for `304`.
    public var fileURL: URL
    /// The file's name in the folder or ``DownloadDestination`` it was made in.
    public var fileName: String { fileURL.lastPathComponent }
    /// The body's size in bytes (after content decoding).
    public var byteCount: Int
    /// Timings and connection facts of the attempt that produced this response.
    public var metrics: HTTPMetrics

    /// For other ``HTTPLoading`` implementations (a test double, another transport).
    public init(
        requestURL: URL, url: URL, status: Int, headers: HTTPHeaders, fileURL: URL, byteCount: Int, metrics: HTTPMetrics
    ) {
        self.requestURL = requestURL
        self.url = url
        self.status = status
        self.headers = headers
        self.fileURL = fileURL
        self.byteCount = byteCount
        self.metrics = metrics
    }

    /// `2xx`.
    public var isSuccess: Bool { (200..<300).contains(status) }
    /// `304 Not Modified`: the cached copy is still good, and ``fileURL`` is empty.
    public var isNotModified: Bool { status == 304 }
}

/// What one transfer cost, read from curl after it finished.
public struct HTTPMetrics: Sendable, Hashable {
    /// From the start until the host name was resolved (`CURLINFO_NAMELOOKUP_TIME_T`).
    public var nameLookup: Duration
    /// From the start until the TCP connection was made (`CURLINFO_CONNECT_TIME_T`).
    public var connect: Duration
    /// From the start until the TLS handshake was done (zero for plain HTTP).
    public var tlsHandshake: Duration
    /// From the start until the first response byte arrived (`CURLINFO_STARTTRANSFER_TIME_T`).
    public var timeToFirstByte: Duration
    /// From the start until the transfer ended, redirects included.
    public var total: Duration
    /// Body bytes received, after content decoding; headers not counted.
    public var bytesReceived: Int
    /// "1.1", "2", "3" or "1.0".
    public var httpVersion: String
    /// `true` when no new connection was opened for this transfer.
    public var reusedConnection: Bool
    /// Redirects followed before the final response.
    public var redirectCount: Int
    /// 1 for the first try; higher when the client retried.
    public var attempt: Int

    /// For other ``HTTPLoading`` implementations and tests. Every field defaults to nothing
    /// measured: zero durations and bytes, HTTP/1.1, a new connection, the first attempt.
    public init(
        nameLookup: Duration = .zero, connect: Duration = .zero, tlsHandshake: Duration = .zero,
        timeToFirstByte: Duration = .zero, total: Duration = .zero, bytesReceived: Int = 0,
        httpVersion: String = "1.1", reusedConnection: Bool = false, redirectCount: Int = 0, attempt: Int = 1
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.timeToFirstByte = timeToFirstByte
        self.total = total
        self.bytesReceived = bytesReceived
        self.httpVersion = httpVersion
        self.reusedConnection = reusedConnection
        self.redirectCount = redirectCount
        self.attempt = attempt
    }
}
