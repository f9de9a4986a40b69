import Foundation

/// Loads HTTP resources. The contract every implementation keeps:
///
/// - It is thread-safe: call it from any task, any number of times at once.
/// - It returns a response for every HTTP status (a `404` is a response, and so is a
///   `304`); it throws ``HTTPClientError`` only when no complete response arrived
///   (connection, timeout, limits, redirects, scheme, cancellation). Use
///   ``HTTPResponse/requireSuccess()`` to turn error statuses into errors.
/// - A truncated body or a reset connection is an error, never a short success.
/// - Cancelling the calling task cancels the transfer promptly and throws `.cancelled`.
///
/// ``HTTPClient`` is the libcurl implementation.
public protocol HTTPLoading: Sendable {
    /// Performs `request` and holds the body in memory.
    func execute(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse

    /// Performs `request`, streaming the body to a new temporary file inside `directory`
    /// without holding it in memory. The caller owns the returned file.
    func download(_ request: HTTPRequest, into directory: URL) async throws(HTTPClientError) -> HTTPDownload
}

extension HTTPLoading {
    /// `GET url` with optional headers and priority.
    public func get(_ url: URL, headers: HTTPHeaders = [:], priority: HTTPPriority = .normal)
        async throws(HTTPClientError) -> HTTPResponse
    {
        try await execute(HTTPRequest(url: url, headers: headers, priority: priority))
    }
}
