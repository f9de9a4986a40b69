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

    /// Performs `request`, streaming the body into a file `destination` makes (and removes
    /// when an attempt fails), without holding it in memory. The caller owns the returned
    /// file (``HTTPDownload/fileName`` in `destination`). The default implementation holds
    /// the body in memory (``execute(_:)``) and then writes it into one file of `destination`.
    func download(_ request: HTTPRequest, to destination: any DownloadDestination) async throws(HTTPClientError) -> HTTPDownload
}

extension HTTPLoading {
    /// `GET url` with optional headers and priority.
    public func get(_ url: URL, headers: HTTPHeaders = [:], priority: HTTPPriority = .normal)
        async throws(HTTPClientError) -> HTTPResponse
    {
        try await execute(HTTPRequest(url: url, headers: headers, priority: priority))
    }
}

extension HTTPLoading {
    /// ``execute(_:)``, then the body written into one file of `destination`.
    public func download(_ request: HTTPRequest, to destination: any DownloadDestination) async throws(HTTPClientError) -> HTTPDownload {
        let response = try await execute(request)
        let file: DownloadFile
        do throws(DownloadDestinationError) {
            file = try destination.makeFile()
        } catch {
            throw HTTPClientError(.fileSystem, url: request.url, detail: error.description, refusedLink: error.isRefusedLink)
        }
        let failure: Int32? = response.body.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = write(file.descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        close(file.descriptor)
        if let failure {
            destination.removeFile(file)
            throw HTTPClientError(.fileSystem, url: request.url, detail: "\(file.path): \(String(cString: strerror(failure)))")
        }
        return HTTPDownload(
            requestURL: response.requestURL, url: response.url, status: response.status, headers: response.headers,
            fileURL: URL(fileURLWithPath: file.path), byteCount: response.body.count, metrics: response.metrics)
    }
}
