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
    /// For `.fileSystem`: a symbolic link stood where the download's file or folder
    /// belongs and was refused; ``detail`` names it, and removing it is the remedy.
    public let refusedLink: Bool

    /// For other ``HTTPLoading`` implementations, which throw these too (`.cancelled`,
    /// `.timedOut` with its ``Timeout``, …); ``HTTPClient`` fills in curl's code and message.
    public init(
        _ code: Code, url: URL?, status: Int? = nil, curlCode: Int? = nil, curlMessage: String? = nil,
        timeout: Timeout? = nil, detail: String? = nil, refusedLink: Bool = false
    ) {
        self.code = code
        self.url = url
        self.status = status
        self.curlCode = curlCode
        self.curlMessage = curlMessage
        self.timeout = timeout
        self.detail = detail
        self.refusedLink = refusedLink
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
        URLUserInfo.removed(from: unredactedFailure + (remedy?.advice ?? ""))
    }

    /// ``reason`` without the advice of ``remedy`` (all of it when there is none): what
    /// failed, for a caller that says what to do in its own terms.
    public var failure: String {
        URLUserInfo.removed(from: "\(url?.absoluteString ?? "request"): \(unredactedFailure)")
    }

    /// ``reason`` without the advice of ``remedy``: what failed, without the URL.
    public var problem: String {
        URLUserInfo.removed(from: unredactedFailure)
    }

    /// ``problem`` without curl's own words, which differ from one transfer to the next
    /// ("after 2001 milliseconds"): the same text for like failures, to group them.
    public var summary: String {
        URLUserInfo.removed(from: failureText(curl: ""))
    }

    /// What to do, for the failures whose advice a caller may word in its own terms (its
    /// flags, its commands): ``reason`` is what failed followed by ``Remedy/advice``.
    public enum Remedy: String, Sendable, Hashable, CaseIterable {
        /// The total timeout: the server may be slow; allow more time.
        case allowMoreTime
        /// The stall timeout: the server stopped sending; a longer timeout does not help.
        case checkStalledServer
        /// The proxy failed: check it, or go direct.
        case checkProxy

        /// The words, with the punctuation that joins them to what failed.
        public var advice: String {
            switch self {
            case .allowMoreTime: "; check the server, or allow more time"
            case .checkStalledServer: ": check the server (a longer request timeout does not lengthen this limit)"
            case .checkProxy: "; check the proxy URL and that it is running, or go direct"
            }
        }
    }

    /// What to do about a total or stall timeout, or a failed proxy; `nil` for the other
    /// failures, whose ``reason`` says it.
    public var remedy: Remedy? {
        switch code.base {
        case .timedOut where timeout == .stall: .checkStalledServer
        case .timedOut where timeout == .total || timeout == nil: .allowMoreTime
        case .proxy: .checkProxy
        default: nil
        }
    }

    private var unredactedDescription: String {
        "\(url?.absoluteString ?? "request"): \(unredactedFailure)\(remedy?.advice ?? "")"
    }

    /// What failed; followed by ``Remedy/advice`` when there is a ``remedy``.
    private var unredactedFailure: String {
        failureText(curl: curlMessage.map { " (curl: \($0))" } ?? "")
    }

    private func failureText(curl: String) -> String {
        switch code.base {
        case .timedOut:
            let which = timeout.map { "\($0.rawValue) timeout" } ?? "timeout"
            let reached = "\(which) reached\(detail.map { " (\($0))" } ?? "")\(curl)"
            switch timeout {
            case .stall?:
                return "\(reached); the server stopped sending"
            case .connect?:
                return "\(reached); check that the server is up and the address right"
            default:
                return reached
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
            if refusedLink, let detail { return "cannot write the download: \(detail)" }
            return "cannot write the download\(detail.map { ": \($0)" } ?? ""); check the folder's permissions and free space"
        case .shutdown:
            return "the HTTP client was shut down"
        case .proxy:
            return "the proxy \(detail ?? "") failed\(curl)"
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
