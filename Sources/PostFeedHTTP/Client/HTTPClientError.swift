import Foundation

/// Why a request failed. A struct over a private code, so cases can be added without
/// breaking users; it keeps curl's code *and* message, and always names the URL.
///
/// ```swift
/// do { _ = try await client.get(url) }
/// catch where error.code == .timedOut { … }
/// ```
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Compare with the static members (`.timedOut`, `.cancelled`, …).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case timedOut = "timed out"
            case cannotConnect = "cannot connect"
            case cannotResolve = "name not resolved"
            case connectionLost = "connection lost"
            case truncatedBody = "truncated body"
            case tooManyRedirects = "too many redirects"
            case unsupportedScheme = "unsupported scheme"
            case invalidURL = "invalid URL"
            case bodyTooLarge = "body too large"
            case headersTooLarge = "headers too large"
            case httpStatus = "HTTP status"
            case cancelled = "cancelled"
            case tls = "TLS"
            case fileSystem = "file system"
            case shutdown = "client shut down"
            case proxy = "proxy failure"
            case curl = "curl error"
        }
        fileprivate let base: Base

        /// Connect, total or stall timeout; see ``HTTPClientError/timeout``.
        public static let timedOut = Code(base: .timedOut)
        /// The server refused the connection, or could not be reached.
        public static let cannotConnect = Code(base: .cannotConnect)
        /// The host's name did not resolve; the name is ``HTTPClientError/detail`` (a proxy's
        /// name that does not resolve is a ``proxy`` error). Not transient: a name that did not
        /// resolve does not resolve a moment later (curl's own `--retry` leaves it alone too).
        /// libcurl reports a resolver that answered nothing (a timeout, a network still coming
        /// up) the same way, so such a failure is not retried either.
        public static let cannotResolve = Code(base: .cannotResolve)
        /// The connection was reset or closed before a response arrived.
        public static let connectionLost = Code(base: .connectionLost)
        /// The connection closed before the promised body was complete.
        public static let truncatedBody = Code(base: .truncatedBody)
        /// More redirects than ``HTTPClient/Configuration/maximumRedirects`` (default 5).
        public static let tooManyRedirects = Code(base: .tooManyRedirects)
        /// Only `http` and `https` are allowed, also on redirect.
        public static let unsupportedScheme = Code(base: .unsupportedScheme)
        /// curl could not parse the URL (or a redirect's `Location`).
        public static let invalidURL = Code(base: .invalidURL)
        /// The body exceeded the configured maximum; the transfer was aborted early.
        public static let bodyTooLarge = Code(base: .bodyTooLarge)
        /// The response's header fields exceeded ``Transfer/maximumHeaderBytes`` (256 KiB);
        /// the transfer was aborted before its body. Not transient.
        public static let headersTooLarge = Code(base: .headersTooLarge)
        /// A response arrived with an error status (see ``HTTPResponse/requireSuccess()``).
        public static let httpStatus = Code(base: .httpStatus)
        /// The calling task was cancelled; the transfer was removed from the engine.
        public static let cancelled = Code(base: .cancelled)
        /// The TLS handshake or certificate verification failed; see ``HTTPClientError/curlMessage``.
        public static let tls = Code(base: .tls)
        /// The download's temporary file could not be created or written.
        public static let fileSystem = Code(base: .fileSystem)
        /// The client was shut down while the request was queued or running.
        public static let shutdown = Code(base: .shutdown)
        /// The proxy could not be reached, or refused the request (its URL, without
        /// credentials, is ``HTTPClientError/detail``).
        public static let proxy = Code(base: .proxy)
        /// Any other curl failure; see ``HTTPClientError/curlCode``.
        public static let curl = Code(base: .curl)

        /// A short name for logs, e.g. `timed out` or `HTTP status`.
        public var description: String { base.rawValue }
    }

    /// Which limit a `.timedOut` error hit.
    public enum Timeout: String, Sendable, Hashable {
        /// The limits of ``HTTPTimeouts`` of the same names.
        case connect, total, stall
    }

    /// The kind of failure; compare it with the static members: `error.code == .timedOut`.
    public let code: Code
    /// The URL that was requested.
    public let url: URL?
    /// The HTTP status, for `.httpStatus`.
    public let status: Int?
    /// The curl result code (`CURLcode`), when curl reported the failure.
    public let curlCode: Int?
    /// curl's own message (its error buffer, else `curl_easy_strerror`).
    public let curlMessage: String?
    /// For `.timedOut`.
    public let timeout: Timeout?
    /// Extra detail: the limit that was hit, the errno text, the server's error message.
    public let detail: String?

    /// For other ``HTTPLoading`` implementations, which throw these too (`.cancelled`,
    /// `.timedOut` with its ``Timeout``, …); ``HTTPClient`` fills in curl's code and message.
    public init(
        _ code: Code, url: URL?, status: Int? = nil, curlCode: Int? = nil, curlMessage: String? = nil,
        timeout: Timeout? = nil, detail: String? = nil
    ) {
        self.code = code
        self.url = url
        self.status = status
        self.curlCode = curlCode
        self.curlMessage = curlMessage
        self.timeout = timeout
        self.detail = detail
    }

    /// An error for a response that arrived with `status`. The body's first line, when it
    /// is short text, is kept as ``detail``.
    public static func status(_ status: Int, url: URL, body: Data = Data()) -> HTTPClientError {
        var detail: String?
        if !body.isEmpty, body.count <= 4096, let text = String(data: body, encoding: .utf8) {
            detail = text.split(whereSeparator: \.isNewline).first.map(String.init)
        }
        return HTTPClientError(.httpStatus, url: url, status: status, detail: detail)
    }

    /// Whether trying again may succeed: connection problems, connect timeouts and stalls
    /// (a stalled body is a connection gone quiet, as good as reset). Not the total timeout:
    /// the next attempt would take as long; not a name that did not resolve
    /// (``Code/cannotResolve``): the resolver has answered, and would answer the same.
    public var isTransient: Bool {
        switch code.base {
        case .cannotConnect, .connectionLost, .truncatedBody: true
        case .timedOut: timeout == .connect || timeout == .stall
        default: false
        }
    }

    /// One line naming what failed and what to do.
    public var description: String {
        // The URL may carry a base URL's credentials (basic authentication): never printed.
        URLUserInfo.removed(from: unredactedDescription)
    }

    /// ``description`` without the URL in front: what failed and what to do, for a caller
    /// that names the URL itself (`image <url>: <reason>`).
    public var reason: String {
        URLUserInfo.removed(from: unredactedReason)
    }

    private var unredactedDescription: String {
        "\(url?.absoluteString ?? "request"): \(unredactedReason)"
    }

    private var unredactedReason: String {
        let curl = curlMessage.map { " (curl: \($0))" } ?? ""
        switch code.base {
        case .timedOut:
            let which = timeout.map { "\($0.rawValue) timeout" } ?? "timeout"
            let reached = "\(which) reached\(detail.map { " (\($0))" } ?? "")\(curl)"
            switch timeout {
            case .stall?:
                // The stall limit is no setting of the CLI's: --timeout only ever shortens it.
                return "\(reached); the server stopped sending: check the server (a longer --timeout does not lengthen this limit)"
            case .connect?:
                return "\(reached); check that the server is up and the address right"
            default:
                return "\(reached); check the server, or allow more time (--timeout, or a backend file's timeout)"
            }
        case .cannotConnect:
            return "cannot connect\(curl); is the server running and the address right?"
        case .cannotResolve:
            return "the name \(detail ?? "of the host") did not resolve\(curl); check the host name in the URL"
        case .connectionLost:
            return "connection lost before a complete response\(curl); try again"
        case .truncatedBody:
            return "the connection closed before the body was complete\(curl); try again"
        case .headersTooLarge:
            return "the response headers are too large (\(detail ?? "over the limit")), so the response was not read\(curl); the server is misbehaving: check it"
        case .tooManyRedirects:
            return "too many redirects\(detail.map { " (\($0))" } ?? "")\(curl); check the URL: the server redirects in a loop"
        case .unsupportedScheme:
            return "only http and https are allowed\(detail.map { " (\($0))" } ?? "")\(curl); check the URL and where the server redirects it"
        case .invalidURL:
            return "invalid URL\(detail.map { " (\($0))" } ?? "")"
        case .bodyTooLarge:
            // No advice: the CLI has no setting for the limit (the library's is
            // `Configuration.maximumBodySize` or `HTTPRequest.maximumBodySize`).
            return "body larger than the \(detail.map { "\($0) " } ?? "")limit, so it was not read to the end"
        case .httpStatus:
            let code = status.map(String.init) ?? "?"
            return "HTTP \(code)\(detail.map { ": \($0)" } ?? "")"
        case .cancelled:
            return "cancelled"
        case .tls:
            return "TLS failure\(curl); check the certificate and the host name"
        case .fileSystem:
            // A refused link is its own remedy: the line names it.
            if let detail, detail.hasSuffix("; refused") { return "cannot write the download: \(detail)" }
            return "cannot write the download\(detail.map { ": \($0)" } ?? ""); check the folder's permissions and free space"
        case .shutdown:
            return "the HTTP client was shut down"
        case .proxy:
            return "the proxy \(detail ?? "") failed\(curl); check the proxy URL (--proxy, or HTTPS_PROXY / HTTP_PROXY / "
                + "ALL_PROXY) and that it is running, or go direct with --proxy \"\" or NO_PROXY"
        case .curl:
            return "transfer failed\(curl)"
        }
    }
}

extension HTTPClientError {
    /// `bytes` as a reader would write a limit: `50 MiB`, `64 KiB`, else `1000 bytes`.
    static func binarySize(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
