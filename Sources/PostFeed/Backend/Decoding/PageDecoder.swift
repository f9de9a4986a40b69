import Foundation
import PostFeedHTTP

/// Turns a page response (body and headers) into a ``Page``, following a backend
/// description: where the items are, where the total is, which signals end the list, and
/// how the next page is addressed.
struct PageDecoder: Sendable {
    let backend: BackendDescription
    let pageSize: Int
    let posts: PostDecoder

    init(backend: BackendDescription, pageSize: Int) {
        self.backend = backend
        self.pageSize = max(1, pageSize)
        self.posts = PostDecoder(fields: backend.fields, backend: backend)
    }

    /// Decodes the page `key`, fetched from `url`.
    ///
    /// A page-number or offset page holding more posts than the page size (a server that
    /// ignores it) keeps only its first `pageSize` posts and says how many came in
    /// ``Page/sentPostCount``: the next page's posts are numbered from page × page size,
    /// so the extra posts would be shown twice under new numbers, or in the wrong places.
    /// Offsets then advance by the posts kept, so a server that honours the offset misses
    /// none. Cursor and link pages are kept whole (nothing is numbered from their length).
    ///
    /// - Parameter startIndex: how many posts come before this page, when the style does
    ///   not say (cursor and link pages reached by walking); `nil` when unknown.
    /// - Throws: ``RepositoryError`` `.decoding` naming the URL, the page and the field;
    ///   `.pageOutOfRange` for an empty page past a known total.
    func decode(body: Data, headers: HTTPHeaders, url: URL, key: PageKey, startIndex walkedStart: Int? = nil)
        throws(RepositoryError) -> Page
    {
        let start = startIndex(of: key) ?? walkedStart
        if backend.pageFormat == .feed {
            return try decodeFeed(body: body, headers: headers, url: url, key: key, startIndex: start)
        }
        let number = start.map { PlaceConverter.page(forIndex: $0, pageSize: pageSize) }
        let location = "\(key.phrase(number: number)) of \(url.absoluteString)"
        func failure(_ message: String) -> RepositoryError {
            RepositoryError(
                .decoding, url: url, page: key,
                message: "\(location): \(message)", recovery: .checkBackend)
        }

        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            throw failure(NotJSONBody.sentence(for: error, in: body, contentType: headers["Content-Type"]))
        }
        let items: [JSONValue]
        switch (backend.items, json) {
        case (.root, .array(let array)):
            items = array
        case (.root, _):
            throw failure("the body is \(json.typeDescription), expected an array of posts")
        case (.key(let path), .object):
            guard let value = json.value(atPath: path) else { throw failure("field \"\(path)\" missing") }
            guard case .array(let array) = value else {
                throw failure("field \"\(path)\" is \(value.typeDescription), expected an array of posts")
            }
            items = array
        case (.key(let path), _):
            throw failure("the body is \(json.typeDescription), expected an object with the posts under \"\(path)\"")
        }

        // A page longer than asked for (the server ignores the page size) keeps its first
        // `pageSize` posts where posts are numbered by page × page size; the rest would be
        // numbered into the next pages' places. Posts past the cut are not even decoded.
        let kept = keptCount(of: items.count, key: key)
        var decoded: [Post] = []
        decoded.reserveCapacity(kept)
        // One malformed post costs that post (or that field), not the page and every page
        // after it; a page none of whose posts decodes has a wrong mapping, and fails.
        var problems: [String] = []
        var firstFailure: RepositoryError?
        // Each decoded post's place in the page as sent (1-based), for what is said of it.
        var positions: [Int] = []
        for (index, item) in items.prefix(kept).enumerated() {
            var notes: [String] = []
            do {
                decoded.append(try posts.decode(item, notes: &notes))
                positions.append(index + 1)
                problems += notes.map { "post #\(index + 1) shown without it: \($0)" }
            } catch {
                let message = "post #\(index + 1) in \(location): \(error.message)"
                firstFailure = firstFailure ?? RepositoryError(.decoding, url: url, page: key, message: message)
                problems.append("post #\(index + 1) skipped: \(error.message)")
            }
        }
        if decoded.isEmpty, let firstFailure { throw firstFailure }
        // The count that moves offsets and says where the list ends: what the server sent.
        let decodedCount = decoded.count
        // A post listed twice in one page (`"7"` and `7` are both the id 7) is shown once,
        // where it first comes: twice, it would take two numbers on screen and one in the
        // saved place, and the numbers after it would disagree from run to run.
        var seen: [PostID: Int] = [:]
        var unique: [Post] = []
        unique.reserveCapacity(decoded.count)
        for (post, position) in zip(decoded, positions) {
            if let first = seen[post.id] {
                problems.append("post #\(position) skipped: it repeats post #\(first) (id \(post.id)) of the same page")
            } else {
                seen[post.id] = position
                unique.append(post)
            }
        }
        decoded = unique

        let total = totalCount(json: json, headers: headers)
        // Past a known total is past the end, also when the server answers with posts
        // anyway (json-server 1.x clamps a page past the last to the last page). A page
        // number whose start overflows is past any total.
        let startOverflows = if case .number(let n) = key { n > 1 && startIndex(of: key) == nil } else { false }
        if let total, startOverflows || (start.map { $0 > 0 && $0 >= total } ?? false) {
            let pages = PlaceConverter.page(forPosition: max(total, 1), pageSize: pageSize)
            throw RepositoryError(
                .pageOutOfRange, url: url, page: key,
                message: "\(key.phrase(number: number)) is past the end of the list (\(total) posts, \(pages) pages of \(pageSize))")
        }
        let linkValues = headers.values(for: "Link")
        let links = LinkHeader(parsing: linkValues, relativeTo: url)
        // A Link header none of whose links can be read says nothing about the end: it is
        // no signal (the others decide), and it is said, since a link-style list cannot
        // go on without it.
        let unreadableLinks = !linkValues.isEmpty && links.links.isEmpty
        if unreadableLinks {
            let shown = linkValues.joined(separator: ", ")
            problems.append(
                "its Link header could not be read (\(shown.count > 120 ? shown.prefix(120) + "…" : shown)); "
                    + "the list may go on past this page")
        }
        let pageCount = pageCount(json: json, headers: headers)
        let ended = decoded.isEmpty
            || endSignalled(
                json: json, links: links, hasLinkHeader: !links.links.isEmpty, count: decodedCount, start: start,
                total: total, number: number, pageCount: pageCount)
        return Page(
            key: key, posts: decoded,
            nextKey: ended ? nil : nextKey(after: key, json: json, links: links, count: decodedCount, url: url),
            totalCount: total, number: number,
            totalPages: total.map { $0 == 0 ? 0 : PlaceConverter.page(forPosition: $0, pageSize: pageSize) } ?? pageCount,
            sentPostCount: kept < items.count ? items.count : nil, decodingProblems: problems)
    }

    /// How many of a page's `count` items are kept: all of them in cursor and link styles,
    /// which take the server's page as long as it is; at most the page size for page
    /// numbers and offsets, whose posts are numbered by page × page size.
    func keptCount(of count: Int, key: PageKey) -> Int {
        switch key {
        case .number, .offset: min(count, pageSize)
        case .cursor, .link: count
        }
    }

    /// How many posts come before page `key`, when the key itself says.
    func startIndex(of key: PageKey) -> Int? {
        switch key {
        case .number(let number): 
            let (start, overflow) = (number - 1).multipliedReportingOverflow(by: pageSize)
            return overflow ? nil : start
        case .offset(let offset): return offset
        case .cursor(nil), .link(nil): return 0
        case .cursor, .link: return nil
        }
    }

    // MARK: Signals

    /// The total from the header, else the body field; `nil` when neither is a number.
    func totalCount(json: JSONValue, headers: HTTPHeaders) -> Int? {
        if let name = backend.total.header, let value = headers[name],
            let total = Int(value.trimmingCharacters(in: .whitespaces)), total >= 0
        {
            return total
        }
        if let field = backend.total.bodyField, let total = json.value(atPath: field)?.integerValue, total >= 0 {
            return total
        }
        return nil
    }

    /// The number of pages when a page-count end signal reads one (`nbPages`,
    /// `X-WP-TotalPages`); `nil` otherwise.
    func pageCount(json: JSONValue, headers: HTTPHeaders) -> Int? {
        for signal in backend.endSignals {
            switch signal {
            case .pageCountField(let field):
                if let count = json.value(atPath: field)?.integerValue, count >= 0 { return count }
            case .pageCountHeader(let name):
                if let value = headers[name], let count = Int(value.trimmingCharacters(in: .whitespaces)), count >= 0 {
                    return count
                }
            default: continue
            }
        }
        return nil
    }

    /// Whether this page ends the list. Explicit facts decide: `hasMore`-style flags, a
    /// next cursor or `next` field, a `Link` header that is present (with or without
    /// `rel="next"`), the total reached. Only when none of them is present does the
    /// short-page heuristic apply. A missing header or field is no signal either way.
    private func endSignalled(
        json: JSONValue, links: LinkHeader, hasLinkHeader: Bool, count: Int, start: Int?, total: Int?, number: Int?,
        pageCount: Int?
    ) -> Bool {
        var facts: [Bool] = []
        var shortPage = false
        for signal in backend.endSignals {
            switch signal {
            case .linkWithoutNext:
                if hasLinkHeader { facts.append(links.url(forRelation: "next") == nil) }
            case .totalReached:
                if let start, let total { facts.append(PlaceConverter.saturatingAdd(start, count) >= total) }
            case .flagFalse(let field):
                if case .bool(let value)? = json.value(atPath: field) { facts.append(!value) }
            case .fieldNull(let field):
                if let value = json.value(atPath: field) { facts.append(value.isNull) }
            case .fieldMissing(let field):
                facts.append(json.value(atPath: field)?.isNull ?? true)
            case .pageCountField, .pageCountHeader:
                if let number, let pageCount { facts.append(number >= pageCount) }
            case .shortPage:
                shortPage = count < pageSize
            }
        }
        return facts.isEmpty ? shortPage : facts.contains(true)
    }

    /// The key after `key`; `nil` when the style has no next page to offer (no cursor, no link).
    private func nextKey(after key: PageKey, json: JSONValue, links: LinkHeader, count: Int, url: URL) -> PageKey? {
        switch (backend.pagination, key) {
        case (.nextURL(let field, _), .link):
            guard case .string(let text)? = json.value(atPath: field),
                  !text.trimmingCharacters(in: .whitespaces).isEmpty,
                  let next = URL(string: text.trimmingCharacters(in: .whitespaces), relativeTo: url)?.absoluteURL,
                  let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else { return nil }
            return .link(next)
        case (_, .number(let number)):
            // Numbers and offsets come from the network: saturate, never trap.
            return .number(PlaceConverter.saturatingAdd(number, 1))
        case (_, .offset(let offset)):
            return .offset(PlaceConverter.saturatingAdd(offset, count))
        case (.cursor(_, _, let field), _):
            switch json.value(atPath: field) {
            case .string(let cursor)? where !cursor.isEmpty: return .cursor(cursor)
            case .number?: return json.value(atPath: field)?.integerValue.map { .cursor(String($0)) }
            default: return nil
            }
        case (_, .cursor), (_, .link):
            return links.url(forRelation: "next").map { .link($0) }
        }
    }
}

extension PageKey {
    /// How messages name the page: `page 2`, `page 3 (offset 40)`, `the first page`,
    /// `the page at cursor abc`.
    func phrase(number: Int?) -> String {
        switch self {
        case .number(let number): return "page \(number)"
        case .offset(let offset): return number.map { "page \($0) (offset \(offset))" } ?? "the page at offset \(offset)"
        case .cursor(nil), .link(nil): return "the first page"
        case .cursor(let cursor?): return number.map { "page \($0) (cursor \(cursor))" } ?? "the page at cursor \(cursor)"
        case .link: return number.map { "page \($0)" } ?? "the page"
        }
    }
}
