import Foundation

/// A request for ``HTTPLoading``: method, URL, headers, optional body, plus the per-request
/// knobs (priority, timeouts, body limit) that override the client's configuration.
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://example.com/api/posts?page=1")!)
/// request.headers["Accept"] = "application/json"
/// request.priority = .high
/// ```
public struct HTTPRequest: Sendable, Hashable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: HTTPHeaders
    public var body: Data?
    /// Visible content (`.high`) overtakes queued prefetches (`.low`).
    public var priority: HTTPPriority
    /// Overrides ``HTTPClient/Configuration/timeouts`` for this request.
    public var timeouts: HTTPTimeouts?
    /// Overrides ``HTTPClient/Configuration/maximumBodySize`` for this request.
    public var maximumBodySize: Int?

    public init(
        method: HTTPMethod = .get,
        url: URL,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        priority: HTTPPriority = .normal
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.priority = priority
        self.timeouts = nil
        self.maximumBodySize = nil
    }

    /// Adds `If-None-Match` / `If-Modified-Since` validators, so a server can answer `304`.
    public mutating func addValidators(etag: String?, lastModified: String?) {
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
    }
}

/// HTTP methods. Only idempotent ones are retried.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// RFC 9110 §9.2.2: GET, HEAD, PUT, DELETE, OPTIONS, TRACE.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
    }

    public var description: String { rawValue }
}

/// Scheduling priority inside the client's queue. Requests of a higher priority start
/// before any queued request of a lower one.
public enum HTTPPriority: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Prefetches and background catalog loads.
    case low = 0
    case normal = 1
    /// What the reader is looking at now.
    case high = 2

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Time limits of one transfer.
public struct HTTPTimeouts: Sendable, Hashable {
    /// Limit for name lookup + TCP (+ TLS) connect. Default 10 s.
    public var connect: Duration
    /// Limit for the whole transfer, redirects included. Default 60 s. It bounds each
    /// attempt: with retries, a request may take up to this times the attempts, plus the
    /// waits between them.
    public var total: Duration
    /// A transfer that moves fewer than 1 byte per second for this long is aborted
    /// (curl's low-speed limit). Default 15 s.
    public var stall: Duration

    public init(connect: Duration = .seconds(10), total: Duration = .seconds(60), stall: Duration = .seconds(15)) {
        self.connect = connect
        self.total = total
        self.stall = stall
    }
}
