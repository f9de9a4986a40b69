import Foundation
import PostFeedCache
import PostFeedHTTP

/// Everything PostFeed needs to know to page through one backend: where it is, how it
/// paginates, where the items and the total sit, how the end of the list shows, and which
/// fields hold a post's parts.
///
/// Chosen by a preset or loaded from a hand-written JSON config file:
/// ```swift
/// let fixture = try BackendDescription.preset("postfeed", baseURL: URL(string: "http://127.0.0.1:6969")!)
/// let custom = try BackendDescription.load(from: URL(fileURLWithPath: "backend.json"))
/// ```
/// See `BackendDescription+ConfigFile.swift` for the file format; `Codable` uses the same format.
public struct BackendDescription: Sendable, Hashable {
    /// Preset name, or a free name for a custom description.
    public var name: String
    /// The server root; ``postsPath`` and ``postPath`` are appended, relative image URLs
    /// resolved against it.
    public var baseURL: URL
    /// Path of the post list, e.g. `/api/posts`.
    public var postsPath: String
    /// Path of one post, with `{id}`, e.g. `/api/posts/{id}`; `nil` when the backend has none.
    public var postPath: String?
    /// How pages are addressed: page numbers, offsets, cursors or `Link` headers.
    public var pagination: PaginationStyle
    /// Where the items sit in a page body.
    public var items: ItemsLocation
    /// Where the total number of posts comes from.
    public var total: TotalSource
    /// The signals that mark the end of the list; any one of them ends it. An empty page
    /// always ends it, and so does a missing next cursor or next link in those styles.
    public var endSignals: [EndSignal]
    /// Which fields of an item hold a post's parts.
    public var fields: FieldMapping
    /// The largest page size the backend accepts.
    public var maximumPageSize: Int
    /// A fixed ``identity``, for a backend whose address changes between runs (the built-in
    /// fixture backend on a free port, a service behind changing hosts). `nil`: derived.
    public var fixedIdentity: String?
    /// The longest one request to this backend may take, in seconds (a config file's
    /// `timeout`); `nil` leaves the HTTP client's default. See ``requestTimeouts(_:from:)``.
    public var requestTimeout: Double?
    /// The shared cache tier for this backend's images (a config file's `sharedCache`,
    /// `"redis://host:port[/db]"`); `nil`: none unless `--shared-cache` names one.
    public var sharedCache: RedisAddress?
    /// The most bytes one page's body may hold (a config file's `maximumPageBytes`);
    /// default ``defaultMaximumPageBodySize``, 8 MiB. A larger body is abandoned while it
    /// streams in, with an error naming the page, its URL and this bound: a server that
    /// ignores the page size cannot make a run hold its whole list in memory.
    public var maximumPageBodySize: Int
    /// The number the backend gives its first page in the `page` style: 1 (the default),
    /// or 0 (Algolia's Hacker News search, Discourse). Page keys stay 1-based everywhere
    /// (`PageKey.number(_:)`, `page N`, list state); only the request says `page=0`.
    /// A config file's `pagination.first`.
    public var firstPageNumber = 1
    /// The page size when the server has one and no parameter to change it (Discourse's
    /// 30): no page-size parameter is sent, and a reader's page size is not used. `nil`:
    /// the reader chooses. A config file's `pageSize`.
    public var fixedPageSize: Int?
    /// Error statuses that mean the list has ended (``EndStatus``), as WordPress's `400`
    /// past the last page. A config file's `endStatus`.
    public var endStatuses: [EndStatus] = []
    /// What page bodies are: JSON read with ``items``, ``total``, ``endSignals`` and
    /// ``fields`` (default), or a feed (RSS, Atom, JSON Feed), which carries all of that
    /// itself. See ``PageFormat``.
    public var pageFormat: PageFormat = .json
    /// How posts' titles and bodies are written (a config file's `bodyFormat`), given to
    /// every post decoded: HTML bodies are laid out as text, Markdown too. `nil` (default):
    /// each post's text is looked at, and read as HTML when it plainly is.
    public var bodyFormat: PostBodyFormat?

    /// A description with every part given; its ``identity`` is derived (``fixedIdentity``
    /// is `nil`).
    public init(
        name: String, baseURL: URL, postsPath: String, postPath: String?, pagination: PaginationStyle,
        items: ItemsLocation, total: TotalSource, endSignals: [EndSignal], fields: FieldMapping = FieldMapping(),
        maximumPageSize: Int = 100
    ) {
        self.name = name
        self.baseURL = baseURL
        self.postsPath = postsPath
        self.postPath = postPath
        self.pagination = pagination
        self.items = items
        self.total = total
        self.endSignals = endSignals
        self.fields = fields
        self.maximumPageSize = maximumPageSize
        self.fixedIdentity = nil
        self.requestTimeout = nil
        self.sharedCache = nil
        self.maximumPageBodySize = Self.defaultMaximumPageBodySize
    }

    /// The largest timeout accepted, in seconds (a day): anything longer is a mistake.
    public static let maximumRequestTimeout: Double = 86_400

    /// `defaults` with a deadline of `seconds` for the whole request, its retries and the
    /// waits between them included (`HTTPTimeouts.overall`): what a reader means by "a
    /// request may take at most". Connecting and a stalled transfer are bounded by it too,
    /// so no part of a request outlasts it; a retry that would not fit is not made.
    public static func requestTimeouts(_ seconds: Double, from defaults: HTTPTimeouts) -> HTTPTimeouts {
        let total = Duration.milliseconds(Int64((min(max(seconds, 0.001), maximumRequestTimeout) * 1000).rounded()))
        return HTTPTimeouts(
            connect: min(defaults.connect, total), total: total, stall: min(defaults.stall, total), overall: total)
    }

    /// Identifies the backend in list state, so state saved for one backend is never
    /// restored into another: ``fixedIdentity`` when set, else the name, the base URL and
    /// the posts path.
    ///
    /// The base URL is normalised as RFC 3986 §6 has it, so one backend has one identity
    /// however it is typed: scheme and host in lower case, a default port (`:80`, `:443`)
    /// and an empty path (`/`) dropped. `HTTP://Example.com:80/` is `http://example.com`.
    ///
    /// Never holds the base URL's user info (`user:password@`): the identity is written
    /// into state files and printed. Two accounts on one backend are told apart as cache
    /// keys tell them apart: a base URL with user info ends its identity in
    /// ` (account <16 hex digits of its SHA-256>)`.
    public var identity: String {
        (fixedIdentity ?? "\(name) \(Self.normalizedURLText(rootURLText))\(postsPath)\(queryTag)") + accountTag
    }

    /// ` (account 1a2b3c4d5e6f7a8b)` for a base URL with user info, the tag cache keys
    /// carry (16 hex digits of the user info's SHA-256); empty without.
    var accountTag: String {
        Self.accountTag(inURLText: baseURL.absoluteString)
    }

    /// The ``accountTag`` of the first user info in `text`; empty when there is none.
    static func accountTag(inURLText text: String) -> String {
        var userInfo: String?
        _ = URLUserInfo.replaced(in: text) { info in
            if userInfo == nil { userInfo = String(info) }
            return nil
        }
        return userInfo.map { " (account \(KeyDigest.hex($0).prefix(16)))" } ?? ""
    }

    /// An identity read from a state file. Files written before credentials were kept out
    /// of identities may hold them: they are dropped, and the account tag they stand for
    /// added, so the place stays that account's and the next save drops the credentials.
    static func storedIdentity(_ text: String) -> String {
        let tag = accountTag(inURLText: text)
        let without = removingUserInfo(text)
        return tag.isEmpty || without.hasSuffix(tag) ? without : without + tag
    }

    /// `text` (an absolute URL) with its scheme and host in lower case, its user info and
    /// a default port (`:80` for http, `:443` for https; an empty one too) dropped, the
    /// rest as it is (RFC 3986 §6.2.2.1 and §6.2.3). Text that is no `scheme://` URL comes
    /// back unchanged.
    static func normalizedURLText(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        // The port follows the last ':' after an IPv6 literal's ']'.
        var host = authority
        var port: Substring = ""
        let hostEnd = authority.lastIndex(of: "]") ?? authority.startIndex
        if let colon = authority[hostEnd...].lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        let defaultPort = ["http": "80", "https": "443"][scheme]
        let keptPort = port.isEmpty || String(port) == defaultPort ? "" : ":\(port)"
        return "\(scheme)://\(host.lowercased())\(keptPort)\(rest[authorityEnd...])"
    }

    /// Tells apart base URLs that differ only in their query (`?feed=a`, `?feed=b`) without
    /// storing the query, which may hold an API key: ` (query 1a2b3c4d)`, a hash of it.
    var queryTag: String {
        guard let query = baseQuery else { return "" }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a: stable across runs and machines
        for byte in query.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        return " (query \(String(hash >> 32, radix: 16)))"
    }

    /// ``baseURL`` as it may be shown or stored: without its user info.
    public var displayBaseURL: String { Self.removingUserInfo(baseURL.absoluteString) }

    /// `text` with the user info of every URL in it removed (see `URLUserInfo`).
    public static func removingUserInfo(_ text: String) -> String {
        URLUserInfo.removed(from: text)
    }

    /// The cache key for `key` (a URL's text, or what an image key function made of it):
    /// with a ``fixedIdentity``, a URL under ``baseURL`` is keyed by the identity and the
    /// rest of the URL, so the same backend on another host or port (the built-in one when
    /// its usual port is taken) finds what it cached. Otherwise `key` itself.
    ///
    /// A URL's user info (`user:password@`, sent as basic authentication) never enters a
    /// key: keys are stored in cache entries on disk and in the shared tier. It is replaced
    /// by `~` and 16 hex digits of its SHA-256, so two accounts on one backend, whose
    /// answers may differ, still never share an entry.
    public func cacheKey(_ key: String) -> String {
        let key = URLUserInfo.replaced(in: key) { "~" + KeyDigest.hex(String($0)).prefix(16) }
        guard let fixedIdentity else { return key }
        let base = URLUserInfo.removed(from: rootURLText)
        guard key.hasPrefix(base) else { return key }
        let rest = key.dropFirst(base.count)
        guard rest.isEmpty || rest.first == "/" || rest.first == "?" else { return key }
        return "[\(fixedIdentity)]\(rest)"
    }

    /// The page size used when none is given (DESIGN.md: 20).
    public static let defaultPageSize = 20

    static func trimmingTrailingSlashes(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
