import Foundation

/// Page keys and request URLs in this backend's pagination style.
extension BackendDescription {
    /// The key of the first page: page 1, offset 0, no cursor, or the posts path.
    public var firstPageKey: PageKey {
        switch pagination {
        case .pageNumber: .number(1)
        case .offset: .offset(0)
        case .cursor: .cursor(nil)
        case .linkHeader, .nextURL: .link(nil)
        }
    }

    /// The key of 1-based page `number` at `pageSize` when the style can address it
    /// directly (page numbers, offsets); `nil` for cursor and link styles, and for `number < 1`.
    public func pageKey(forPageNumber number: Int, pageSize: Int) -> PageKey? {
        guard number >= 1 else { return nil }
        switch pagination {
        case .pageNumber: return .number(number)
        case .offset:
            let (offset, overflow) = (number - 1).multipliedReportingOverflow(by: max(1, pageSize))
            return overflow ? nil : .offset(offset)
        case .cursor, .linkHeader, .nextURL: return nil
        }
    }

    /// Checks `pageSize` against 1…``maximumPageSize``.
    ///
    /// - Throws: ``RepositoryError`` `.badConfiguration` saying the allowed range.
    public func validatePageSize(_ pageSize: Int) throws(RepositoryError) {
        guard (1...max(1, maximumPageSize)).contains(pageSize) else {
            throw RepositoryError(
                .badConfiguration, url: nil, page: nil,
                message: "page size \(pageSize) is out of range for backend \(name); use 1…\(maximumPageSize)")
        }
    }

    /// The list URL without pagination parameters: ``baseURL`` with ``postsPath`` appended
    /// to its path, and the base URL's query (an API key) kept before the path's own.
    public var postsURL: URL? {
        // A feed's list is the base URL itself, as typed (`/feed/` and `/feed` may differ).
        pageFormat == .feed ? baseURL : url(appendingPath: postsPath)
    }

    /// What page requests accept: JSON, or for a feed the three feed types first.
    public var acceptedPageTypes: String {
        switch pageFormat {
        case .json: "application/json"
        case .feed:
            "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, "
                + "application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5"
        }
    }

    /// The URL of one post from ``postPath``, or `nil` when the backend has none.
    public func postURL(id: PostID) -> URL? {
        guard let postPath else { return nil }
        // The id is one path segment: `/`, `?`, `#`, `%` and anything not plain in a path
        // are percent-encoded (`t3_1abc` stays, `tag:x/1` is `tag:x%2F1`).
        let segment = id.text.addingPercentEncoding(withAllowedCharacters: Self.idSegmentCharacters) ?? id.text
        return url(appendingPath: postPath.replacingOccurrences(of: "{id}", with: segment))
    }

    /// What may stand unencoded in a post id's path segment: RFC 3986's unreserved
    /// characters and the sub-delimiters, `:` and `@`.
    private static let idSegmentCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@")

    /// ``baseURL`` without its query and fragment, without trailing slashes:
    /// `http://host/api` for `http://host/api/?key=1`. What API paths and relative image
    /// URLs are put under, and what cache keys and the identity name.
    public var rootURLText: String {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            return Self.trimmingTrailingSlashes(baseURL.absoluteString)
        }
        components.query = nil
        components.fragment = nil
        return Self.trimmingTrailingSlashes(components.url?.absoluteString ?? baseURL.absoluteString)
    }

    /// The base URL's query (e.g. `api_key=1`), percent-encoded; `nil` when it has none.
    public var baseQuery: String? {
        URLComponents(url: baseURL, resolvingAgainstBaseURL: false)?.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `path` (which may carry a query of its own) under the base URL's path, with the
    /// base URL's query first.
    func url(appendingPath path: String) -> URL? {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let pathQuery = parts.count > 1 ? String(parts[1]) : nil
        let query = [baseQuery, pathQuery].compactMap { $0.flatMap { $0.isEmpty ? nil : $0 } }.joined(separator: "&")
        return URL(string: rootURLText + (parts.first.map(String.init) ?? "") + (query.isEmpty ? "" : "?" + query))
    }

    /// The request URL of the page `key` with `pageSize` posts.
    ///
    /// Query parameters are appended in a fixed order after any query already in
    /// ``postsPath``, so one page always has one URL (the page cache's key).
    /// - Throws: ``RepositoryError`` `.badConfiguration` when `key` is not of this
    ///   backend's style, or the URL cannot be formed.
    public func pageURL(for key: PageKey, pageSize: Int) throws(RepositoryError) -> URL {
        let limit = String(pageSize)
        var parameters: [(String, String)] = []
        switch (pagination, key) {
        case (.pageNumber(let page, let limitName), .number(let number)) where number >= 1:
            // Keys count from 1; the backend may count from 0 (`firstPageNumber`).
            parameters = [(page, String(PlaceConverter.saturatingAdd(number - 1, firstPageNumber))), (limitName, limit)]
        case (.offset(let offset, let limitName), .offset(let skip)) where skip >= 0:
            parameters = [(limitName, limit), (offset, String(skip))]
        case (.cursor(let cursorName, let limitName, _), .cursor(let cursor)):
            if let cursor { parameters.append((cursorName, cursor)) }
            parameters.append((limitName, limit))
        case (.linkHeader, .link(nil)) where pageFormat == .feed:
            return baseURL
        case (.linkHeader(let limitName), .link(nil)), (.nextURL(_, let limitName), .link(nil)):
            if let limitName { parameters.append((limitName, limit)) }
        case (.linkHeader, .link(let url?)), (.nextURL, .link(let url?)):
            return linkURL(url)
        default:
            throw RepositoryError(
                .badConfiguration, url: postsURL, page: key,
                message: "\(key) cannot be requested from backend \(name), which pages by \(pagination.summary)")
        }
        // A fixed page size has no parameter to carry it.
        if fixedPageSize != nil, let limitName = pagination.limitParameter {
            parameters.removeAll { $0.0 == limitName }
        }
        guard let base = postsURL, let url = Self.appending(parameters, to: base) else {
            throw RepositoryError(
                .badConfiguration, url: nil, page: key,
                message: "cannot form a URL from base URL \(displayBaseURL) and path \(postsPath)")
        }
        return url
    }

    /// A next link as requested: on the backend's host, with the base URL's credentials
    /// (links are stored without them) and its query parameters (an API key) when the link
    /// lacks them.
    func linkURL(_ url: URL) -> URL {
        guard url.host == baseURL.host, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        else { return url }
        if components.user == nil, let user = base.percentEncodedUser {
            components.percentEncodedUser = user
            components.percentEncodedPassword = base.percentEncodedPassword
        }
        let present = Set((components.queryItems ?? []).map(\.name))
        let missing = (base.percentEncodedQueryItems ?? []).filter { !present.contains($0.name) }
        if !missing.isEmpty {
            components.percentEncodedQueryItems = (components.percentEncodedQueryItems ?? []) + missing
        }
        return components.url ?? url
    }

    /// Appends `name=value` pairs, percent-encoding everything but unreserved characters
    /// (a cursor's `+` or `/` must reach the server as sent).
    static func appending(_ parameters: [(String, String)], to url: URL) -> URL? {
        guard !parameters.isEmpty else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let encoded = parameters.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + encoded
        } else {
            components.percentEncodedQuery = encoded
        }
        return components.url
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

extension PaginationStyle {
    /// A few words for messages: `page numbers (page, limit)`.
    var summary: String {
        switch self {
        case .pageNumber(let page, let limit): "page numbers (\(page), \(limit))"
        case .offset(let offset, let limit): "offsets (\(offset), \(limit))"
        case .cursor(let cursor, let limit, _): "cursors (\(cursor), \(limit))"
        case .linkHeader: "Link header"
        case .nextURL(let field, _): "the next URL in \"\(field)\""
        }
    }
}
