import Foundation
import PostFeedCache
import PostFeedHTTP
import Synchronization

/// One post for the detail view.
extension HTTPPostRepository {
    /// Fetches post `id`.
    ///
    /// With a ``BackendDescription/postPath``, the post is requested there (high priority,
    /// cached like a page under its URL). Without one — or when that request fails, or under
    /// ``CachePolicy/cacheOnly`` with the post's own response not cached — the post is
    /// looked up in the pages this instance decoded, then in this backend's cached pages.
    ///
    /// - Throws: `.notFound` when the backend answers `404`, or when there is no post path
    ///   and no page seen so far holds the post; `.notCached` offline; `.network`,
    ///   `.httpStatus`, `.decoding` as for pages.
    public func post(id: PostID, cachePolicy: PageCachePolicy) async throws(RepositoryError) -> Post {
        guard let url = backend.postURL(id: id) else {
            if let post = postFromPages(id: id) { return post }
            throw RepositoryError(
                loader.effective(cachePolicy) == .cacheOnly ? .notCached : .notFound, url: backend.postsURL, page: nil,
                message: "post \(id.shown) is in none of the pages loaded so far, and backend \(backend.name) "
                    + "has no post path to ask; load more of the list first")
        }
        let subject = "post \(id.shown)"
        let cacheKey = backend.cacheKey(url.absoluteString)
        let result: LoadResult
        do {
            result = try await load(
                url, cacheKey: cacheKey, policy: cachePolicy, priority: .high, subject: subject, page: nil,
                attributes: [Attribute.kind: "post"],
                validate: { [self] body, headers in
                    guard let post = try? decodePost(body, contentType: headers["Content-Type"], url: url, subject: subject)
                    else { return nil }
                    return CachedHTTPLoader.Accepted(value: post)
                })
        } catch where error.code == .network || error.code == .notCached {
            if let post = postFromPages(id: id) { return post }
            throw error
        }
        switch result {
        case .cached(let entry, _):
            do {
                return try decodePost(entry.data, contentType: nil, url: url, subject: subject)
            } catch {
                store.remove(forKey: cacheKey)
                if let post = postFromPages(id: id) { return post }
                guard loader.effective(cachePolicy) != .cacheOnly else { throw error }
                return try await post(id: id, cachePolicy: .reload)
            }
        case .network(let body, let headers, let value):
            if let post = value as? Post { return post }
            return try decodePost(body, contentType: headers["Content-Type"], url: url, subject: subject)
        case .status(let response) where response.status == 404:
            throw RepositoryError(
                .notFound, url: url, page: nil,
                message: "post \(id.shown) does not exist at \(url.absoluteString) (HTTP 404)",
                underlying: HTTPClientError.status(404, url: url, body: response.body))
        case .status(let response):
            if response.status >= 500, let post = postFromPages(id: id) { return post }
            throw statusError(response, subject: subject, page: nil)
        }
    }

    /// - Parameter contentType: the response's, named when the body is not JSON; `nil` for a cached body.
    private func decodePost(_ body: Data, contentType: String?, url: URL, subject: String) throws(RepositoryError) -> Post {
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            let said = NotJSONBody.sentence(for: error, in: body, contentType: contentType)
            throw RepositoryError(.decoding, url: url, page: nil, message: "\(subject) at \(url.absoluteString): \(said)")
        }
        do {
            return try decoder.posts.decode(json)
        } catch {
            throw RepositoryError(
                .decoding, url: url, page: nil, message: "\(subject) at \(url.absoluteString): \(error.message)")
        }
    }

    /// The post from a page decoded in this process, else from this backend's cached pages.
    private func postFromPages(id: PostID) -> Post? {
        if let post = recentPosts.object(forKey: id) { return post }
        for entry in store.storedEntries() where entry.metadata.attributes[Attribute.kind] == "page" {
            if backend.pageFormat == .feed {
                let headers = PageCacheStore.headers(of: entry)
                let url = entry.metadata.url.flatMap { URL(string: $0) } ?? backend.baseURL
                let page = try? decoder.decodeFeed(
                    body: entry.data, headers: headers, url: url, key: .link(nil), startIndex: nil)
                if let post = page?.posts.first(where: { $0.id == id }) { return post }
                continue
            }
            guard let json = try? JSONValue.parse(entry.data) else { continue }
            let items: [JSONValue]
            switch (backend.items, json) {
            case (.root, .array(let array)): items = array
            case (.key(let path), _):
                guard case .array(let array)? = json.value(atPath: path) else { continue }
                items = array
            default: continue
            }
            for item in items {
                if let post = try? decoder.posts.decode(item), post.id == id { return post }
            }
        }
        return nil
    }
}
