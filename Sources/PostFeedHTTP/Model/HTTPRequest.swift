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
    /// The request method. Default `GET`; only idempotent methods are retried.
    public var method: HTTPMethod
    /// The URL to fetch. It must be `http` or `https` and name a host, else the request fails
    /// with `.unsupportedScheme` or `.invalidURL` before anything is sent.
    public var url: URL
    /// Fields sent with the request. One named like a header curl adds itself (`User-Agent`,
    /// `Accept-Encoding`, `Host`) replaces curl's. A name holding `:` or a line break, or a
    /// value holding a line break, fails the request with `.invalidURL`.
    public var headers: HTTPHeaders
    /// The request body, sent whole with its `Content-Length`; `nil` sends none. Set
    /// `Content-Type` in ``headers``: curl otherwise labels a body
    /// `application/x-www-form-urlencoded`.
    public var body: Data?
    /// Visible content (`.high`) overtakes queued prefetches (`.low`).
    public var priority: HTTPPriority
    /// Overrides ``HTTPClient/Configuration/timeouts`` for this request.
    public var timeouts: HTTPTimeouts?
    /// Overrides ``HTTPClient/Configuration/maximumBodySize`` for this request.
    public var maximumBodySize: Int?

    /// A request without overrides: ``timeouts`` and ``maximumBodySize`` start `nil`, so the
    /// client's configuration applies.
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
    /// The method's token, upper-case (`"GET"`); sent as is.
    public var rawValue: String
    /// Any method, upper-cased: `HTTPMethod(rawValue: "patch")` is `PATCH`.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// `GET`, the default. Idempotent, so retried.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: headers only. The body limit does not apply to its `Content-Length`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`. Not idempotent, so never retried.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`. Idempotent, so retried.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `DELETE`. Idempotent, so retried.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`. Idempotent, so retried.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// RFC 9110 §9.2.2: GET, HEAD, PUT, DELETE, OPTIONS, TRACE.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
    }

    /// The ``rawValue``, e.g. `GET`.
    public var description: String { rawValue }
}

/// Scheduling priority inside the client's queue. Requests of a higher priority start
/// before any queued request of a lower one.
public enum HTTPPriority: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Prefetches and background catalog loads.
    case low = 0
    /// The default: requests that set no priority.
    case normal = 1
    /// What the reader is looking at now.
    case high = 2

    /// Orders by raw value: `.low < .normal < .high`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Time limits of one transfer.
public struct HTTPTimeouts: Sendable, Hashable {
    /// Limit for name lookup + TCP (+ TLS) connect. Default 10 s.
    public var connect: Duration
    /// Limit for the whole transfer, redirects included. Default 60 s. It bounds each
    /// attempt: with retries, a request may take up to this times the attempts, plus the
    /// waits between them, unless ``overall`` bounds them all.
    public var total: Duration
    /// A transfer that receives nothing (no header line, no body byte) for this long once
    /// its request is on its way fails with a stall timeout, within a few milliseconds of
    /// the limit; retried like a reset for idempotent methods. Connecting is bounded by
    /// ``connect`` instead. Default 15 s; at least 1 ms; a limit not shorter than ``total``
    /// leaves the total limit to decide.
    public var stall: Duration
    /// Limit for the whole request: every attempt, and the waits between them (backoff,
    /// `Retry-After`). An attempt gets at most what is left of it, and a retry whose wait
    /// would end past it is not made: the last response (a `429` with its `Retry-After`)
    /// or error comes back at once. Default `nil`: attempts are bounded one by one.
    public var overall: Duration?

    /// Defaults: connect 10 s, total 60 s, stall 15 s, no overall limit. `connect` and
    /// `total` are applied in whole milliseconds, at least 1.
    public init(
        connect: Duration = .seconds(10), total: Duration = .seconds(60), stall: Duration = .seconds(15),
        overall: Duration? = nil
    ) {
        self.connect = connect
        self.total = total
        self.stall = stall
        self.overall = overall
    }
}
