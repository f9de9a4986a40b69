import Foundation

extension BackendDescription {
    /// The names ``preset(_:baseURL:)-(String,_)`` knows, in the order `--help` lists them.
    public static let presetNames = BackendPreset.allCases.map(\.rawValue)

    /// A description of a well-known backend at `baseURL`.
    ///
    /// - `postfeed`: the fixture backend (the default). `GET /api/posts?page=N&limit=M`,
    ///   items under `posts`, total from `X-Total-Count` or `total`; ends on `hasMore:false`,
    ///   a `Link` without `rel="next"`, or the total reached. `GET /api/posts/{id}`.
    /// - `postfeed-cursor`: the same backend in cursor mode, `?cursor=C&limit=M`, ending
    ///   on `nextCursor:null` or `hasMore:false`.
    /// - `json-server`: json-server 0.17. `GET /posts?_page=N&_limit=M`, the body is the
    ///   array, total from `X-Total-Count`; ends on a `Link` without next, the total
    ///   reached, or a short page.
    /// - `json-server-v1`: json-server 1.x. `GET /posts?_page=N&_per_page=M`, body
    ///   `{first, prev, next, last, pages, items, data}`; ends on `next:null`.
    /// - `dummyjson`: DummyJSON. `GET /posts?limit=M&skip=S`, body `{posts, total, skip, limit}`;
    ///   ends on the total reached or a short page.
    /// - `wordpress`, `mastodon`, `hackernews`, `reddit`, `ghost`, `lemmy`, `discourse`,
    ///   `forem`: real APIs as documented (see `BackendDescription+APIPresets.swift`).
    /// - `feed`: an RSS 2.0, Atom 1.0 or JSON Feed 1.1 document at the base URL itself
    ///   (``PageFormat/feed``): the first page is the base URL as given, the next one the
    ///   document's (`rel="next"`, `next_url`) or, for RSS, `?paged=N+1` until a `404`;
    ///   the page size is the server's. No post path: a post is found in the pages read.
    ///
    /// ```swift
    /// let backend = try BackendDescription.preset("dummyjson", baseURL: URL(string: "https://dummyjson.com")!)
    /// ```
    /// - Throws: ``BackendConfigurationError`` naming the unknown preset and the known ones.
    public static func preset(_ name: String, baseURL: URL) throws(BackendConfigurationError) -> BackendDescription {
        if let problem = baseURLProblem(baseURL) {
            throw BackendConfigurationError(file: nil, field: "baseURL", message: problem)
        }
        if let api = apiPreset(name.lowercased(), baseURL: baseURL) { return api }
        switch name.lowercased() {
        case "postfeed":
            return BackendDescription(
                name: "postfeed", baseURL: baseURL, postsPath: "/api/posts", postPath: "/api/posts/{id}",
                pagination: .pageNumber(page: "page", limit: "limit"), items: .key("posts"),
                total: TotalSource(header: "X-Total-Count", bodyField: "total"),
                endSignals: [.flagFalse("hasMore"), .linkWithoutNext, .totalReached])
        case "postfeed-cursor":
            return BackendDescription(
                name: "postfeed-cursor", baseURL: baseURL, postsPath: "/api/posts", postPath: "/api/posts/{id}",
                pagination: .cursor(cursor: "cursor", limit: "limit", nextCursorField: "nextCursor"),
                items: .key("posts"), total: TotalSource(header: "X-Total-Count", bodyField: "total"),
                endSignals: [.fieldNull("nextCursor"), .flagFalse("hasMore")])
        case "json-server":
            return BackendDescription(
                name: "json-server", baseURL: baseURL, postsPath: "/posts", postPath: "/posts/{id}",
                pagination: .pageNumber(page: "_page", limit: "_limit"), items: .root,
                total: .header("X-Total-Count"), endSignals: [.linkWithoutNext, .totalReached, .shortPage])
        case "json-server-v1":
            return BackendDescription(
                name: "json-server-v1", baseURL: baseURL, postsPath: "/posts", postPath: "/posts/{id}",
                pagination: .pageNumber(page: "_page", limit: "_per_page"), items: .key("data"),
                total: .bodyField("items"), endSignals: [.fieldNull("next")])
        case "dummyjson":
            return BackendDescription(
                name: "dummyjson", baseURL: baseURL, postsPath: "/posts", postPath: "/posts/{id}",
                pagination: .offset(offset: "skip", limit: "limit"), items: .key("posts"),
                total: .bodyField("total"), endSignals: [.totalReached, .shortPage])
        case "feed":
            var feed = BackendDescription(
                name: "feed", baseURL: baseURL, postsPath: "", postPath: nil, pagination: .linkHeader(limit: nil),
                items: .root, total: .unknown, endSignals: [])
            feed.pageFormat = .feed
            return feed
        default:
            throw BackendConfigurationError(
                file: nil, field: nil,
                message: "unknown backend preset \"\(name)\"; use one of \(presetNames.joined(separator: ", ")) or a config file")
        }
    }

    /// Why `url` cannot be a base URL, or `nil` when it can: it must be `http` or `https`
    /// with a host.
    static func baseURLProblem(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            return "\"\(url.absoluteString)\" must be an http or https URL with a host"
        }
        if url.fragment != nil {
            return "\"\(url.absoluteString)\" has a fragment (#\(url.fragment ?? "")); a base URL cannot have one"
        }
        return nil
    }
}
