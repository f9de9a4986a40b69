import Foundation
import Logging
import PostFeedCache
import PostFeedHTTP

/// The cache-aware request shared by pages and posts: fresh hit, conditional request,
/// `304`, stale fallback.
extension HTTPPostRepository {
    enum LoadResult {
        /// A `2xx` to decode (and then store).
        case network(HTTPResponse)
        /// The cached body: a fresh hit, confirmed by a `304`, or out of date with the reason
        /// (`stale`): offline, the network failed, the server failed.
        case cached(DiskCacheEntry, stale: String?)
        /// An error status with no cached copy to stand in.
        case status(HTTPResponse)
    }

    /// Loads `url` under `policy`. `subject` names it in messages (`page 2`, `post 7`).
    func load(
        _ url: URL, cacheKey: String, policy: PageCachePolicy, priority: HTTPPriority, subject: String, page: PageKey?
    ) async throws(RepositoryError) -> LoadResult {
        let cached = policy == .reload ? nil : store.entry(forKey: cacheKey)
        switch policy {
        case .cacheOnly:
            guard let cached else {
                throw RepositoryError(
                    .notCached, url: url, page: page,
                    message: "\(subject) of \(url.absoluteString) is not cached; go online to load it")
            }
            return .cached(cached, stale: cached.isExpired(at: now()) ? "offline" : nil)
        case .useCache:
            if let cached, !cached.isExpired(at: now()) {
                logger.trace("page cache hit", metadata: ["url": "\(URLUserInfo.removed(from: url.absoluteString))"])
                return .cached(cached, stale: nil)
            }
        case .revalidate, .reload:
            break
        }

        var request = HTTPRequest(url: url, headers: ["Accept": "application/json"], priority: priority)
        if let cached { request.addValidators(etag: cached.metadata.etag, lastModified: cached.metadata.lastModified) }
        let response: HTTPResponse
        do {
            response = try await loader.execute(request)
        } catch {
            if error.code == .cancelled || Task.isCancelled {
                throw RepositoryError(
                    .cancelled, url: url, page: page, message: "loading \(subject) was cancelled", underlying: error)
            }
            if let cached {
                logger.debug("network failed, serving the cached copy", metadata: ["url": "\(URLUserInfo.removed(from: url.absoluteString))", "error": "\(error)"])
                return .cached(cached, stale: "the network failed (\(error.code))")
            }
            throw RepositoryError(
                .network, url: url, page: page,
                message: "\(subject) could not be loaded and is not cached: \(error.description)", underlying: error)
        }

        if response.isNotModified {
            guard let cached else {
                // A 304 to an unconditional request: the server is confused; say so.
                throw RepositoryError(
                    .httpStatus, url: url, page: page,
                    message: "\(subject) of \(url.absoluteString) answered 304 Not Modified to a request without validators",
                    underlying: HTTPClientError.status(304, url: url))
            }
            await store.refresh(forKey: cacheKey, with: response.headers, now: now())
            return .cached(cached, stale: nil)
        }
        if response.isSuccess { return .network(response) }
        if let cached, response.status >= 500 || response.status == 429 {
            logger.debug("server error, serving the cached copy", metadata: ["url": "\(URLUserInfo.removed(from: url.absoluteString))", "status": "\(response.status)"])
            return .cached(cached, stale: "the server failed (HTTP \(response.status))")
        }
        return .status(response)
    }

    /// The error for an error status: `404` → `.pageOutOfRange`, else `.httpStatus`, with
    /// the server's own message and a hint. A `404` on the first page is not the end of the
    /// list (every list has a first page, if empty) but a wrong URL: `.httpStatus`.
    func statusError(_ response: HTTPResponse, subject: String, page: PageKey?) -> RepositoryError {
        let url = response.requestURL
        let server = ServerErrorMessage.from(response.body).map { ": \($0)" } ?? ""
        let underlying = HTTPClientError.status(response.status, url: url, body: response.body)
        if response.status == 404, page == firstPageKey {
            return RepositoryError(
                .httpStatus, url: url, page: page,
                message: "\(subject) of \(url.absoluteString) does not exist (HTTP 404\(server)); the posts URL is wrong: "
                    + "check the base URL and the backend's posts path (--base-url, --api or --backend)",
                underlying: underlying)
        }
        if response.status == 404, page != nil {
            return RepositoryError(
                .pageOutOfRange, url: url, page: page,
                message: "\(subject) of \(url.absoluteString) does not exist (HTTP 404\(server))", underlying: underlying)
        }
        return RepositoryError(
            .httpStatus, url: url, page: page,
            message: "\(subject) of \(url.absoluteString) failed with HTTP \(response.status)\(server)\(Self.hint(for: response.status))",
            underlying: underlying)
    }

    static func hint(for status: Int) -> String {
        switch status {
        case 400: "; check the page size and the backend description"
        case 401, 403: "; the backend wants credentials PostFeed does not send"
        case 429, 500...599: "; try again later"
        default: ""
        }
    }
}
