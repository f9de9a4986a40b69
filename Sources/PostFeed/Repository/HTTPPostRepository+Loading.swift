import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP
import Tracing

/// Pages and posts through the one cached-HTTP path (``CachedHTTPLoader``), and its
/// failures in the repository's words.
extension HTTPPostRepository {
    enum LoadResult {
        /// A `2xx` fetched now, with the validator's value when it accepted the body.
        case network(Data, HTTPHeaders, (any Sendable)?)
        /// The cached body: a fresh hit, confirmed by a `304`, or out of date with the reason
        /// (`stale`): offline, the network failed, the server failed.
        case cached(DiskCacheEntry, stale: String?)
        /// An error status with no cached copy to stand in.
        case status(HTTPResponse)
    }

    /// Loads `url` under `policy`. `subject` names it in messages (`page 2`, `post 7`).
    func load(
        _ url: URL, cacheKey: String, policy: CachePolicy, priority: HTTPPriority, subject: String, page: PageKey?,
        keptHeaders: [String] = [], attributes: [String: String], context: ServiceContext? = nil,
        recorder: LoadRecorder? = nil, validate: @escaping CachedHTTPLoader.Validator
    ) async throws(RepositoryError) -> LoadResult {
        var http = HTTPRequest(url: url, headers: ["Accept": backend.acceptedPageTypes], priority: priority)
        http.maximumBodySize = backend.maximumPageBodySize
        let request = CachedHTTPLoader.Request(
            http: http, key: cacheKey, policy: policy, keptHeaders: keptHeaders, attributes: attributes, kind: .page,
            context: context)
        var trail = LoadTrail()
        defer { recorder?.record { $0 = trail } }
        do {
            switch try await loader.load(request, in: store, trail: &trail, validate: validate) {
            case .cached(let entry, _, let stale): return .cached(entry, stale: stale)
            case .shared(let entry): return .cached(entry, stale: nil)
            case .fetched(let fetched): return .network(fetched.body, fetched.headers, fetched.accepted?.value)
            case .status(let response): return .status(response)
            }
        } catch {
            throw repositoryError(error, url: url, subject: subject, page: page)
        }
    }

    private func repositoryError(_ failure: CachedHTTPLoader.Failure, url: URL, subject: String, page: PageKey?) -> RepositoryError {
        switch failure {
        case .notCached:
            return RepositoryError(
                .notCached, url: url, page: page,
                message: "\(subject) of \(url.absoluteString) is not cached; go online to load it")
        case .cancelled(let underlying):
            return RepositoryError(
                .cancelled, url: url, page: page, message: "loading \(subject) was cancelled", underlying: underlying)
        case .network(let error) where error.code == .bodyTooLarge:
            return RepositoryError(
                .network, url: url, page: page,
                message: "\(subject) of \(url.absoluteString) is larger than the \(Self.binarySize(backend.maximumPageBodySize)) "
                    + "one page may hold, so it was not read; the server may ignore the page size",
                underlying: error, recovery: .raisePageBodyLimit)
        case .network(let error):
            return RepositoryError(
                .network, url: url, page: page,
                message: "\(subject) could not be loaded and is not cached: \(error.failure)", underlying: error,
                recovery: error.recovery)
        case .unaskedNotModified:
            // A 304 to an unconditional request: the server is confused; say so.
            return RepositoryError(
                .httpStatus, url: url, page: page,
                message: "\(subject) of \(url.absoluteString) answered 304 Not Modified to a request without validators",
                underlying: HTTPClientError.status(304, url: url))
        case .unreadableBody(let reason):
            return RepositoryError(.network, url: url, page: page, message: "\(subject) of \(url.absoluteString): \(reason)")
        }
    }

    /// `8 MiB`, `512 KiB`, `100 bytes`: a limit as a reader would write it.
    static func binarySize(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// The error for an error status: `404` → `.pageOutOfRange`, else `.httpStatus`, with
    /// the server's own message and a hint. A `404` on the first page is not the end of the
    /// list (every list has a first page, if empty) but a wrong URL: `.httpStatus`.
    func statusError(_ response: HTTPResponse, subject: String, page: PageKey?) -> RepositoryError {
        let url = response.requestURL
        let server = ServerErrorMessage.from(response.body).map { ": \($0)" } ?? ""
        let underlying = HTTPClientError.status(response.status, url: url, body: response.body)
        if response.status == 404, page == firstPageKey, backend.pageFormat == .feed {
            return RepositoryError(
                .httpStatus, url: url, page: page,
                message: "the feed at \(url.absoluteString) does not exist (HTTP 404\(server)); check the feed's address "
                    + "(the one a feed reader subscribes to)",
                underlying: underlying)
        }
        if response.status == 404, page == firstPageKey {
            return RepositoryError(
                .httpStatus, url: url, page: page,
                message: "\(subject) of \(url.absoluteString) does not exist (HTTP 404\(server)), so the posts URL is wrong "
                    + "(the base URL or the backend's posts path)",
                underlying: underlying, recovery: .checkBackend)
        }
        if response.status == 404, page != nil {
            return RepositoryError(
                .pageOutOfRange, url: url, page: page,
                message: "\(subject) of \(url.absoluteString) does not exist (HTTP 404\(server))", underlying: underlying)
        }
        return RepositoryError(
            .httpStatus, url: url, page: page,
            message: "\(subject) of \(url.absoluteString) failed with HTTP \(response.status)\(server)"
                + Self.hint(for: response.status, retryAfter: response.headers["Retry-After"]),
            underlying: underlying)
    }

    /// `.pageOutOfRange` for an error status the backend sends past its last page
    /// (``BackendDescription/endStatuses``, WordPress's `400 rest_post_invalid_page_number`);
    /// `nil` for any other status, and for the first page, which every list has.
    func endStatusError(_ response: HTTPResponse, subject: String, page: PageKey?) -> RepositoryError? {
        guard !backend.endStatuses.isEmpty, let page, page != firstPageKey else { return nil }
        let body = try? JSONValue.parse(response.body)
        guard let end = backend.endStatuses.first(where: { $0.matches(status: response.status, body: body) }) else { return nil }
        let url = response.requestURL
        let code = end.code.map { " \($0)" } ?? ""
        return RepositoryError(
            .pageOutOfRange, url: url, page: page,
            message: "\(subject) of \(url.absoluteString) is past the end of the list (HTTP \(response.status)\(code))",
            underlying: HTTPClientError.status(response.status, url: url, body: response.body))
    }

    static func hint(for status: Int, retryAfter: String? = nil) -> String {
        switch status {
        case 400: "; check the page size and the backend description"
        case 401, 403: "; the backend wants credentials PostFeed does not send"
        case 407: "; the proxy wants credentials: give them in the proxy URL (http://user:password@host:port)"
        case 429: "; the server is rate-limiting\(retryAfter.map { " (Retry-After \($0.prefix(40)))" } ?? ""); try again later"
        case 500...599: "; try again later"
        default: ""
        }
    }
}
