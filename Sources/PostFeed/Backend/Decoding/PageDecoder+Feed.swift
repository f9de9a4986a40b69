import Foundation
import PostFeedFormats
import PostFeedHTTP

/// Pages of a feed (``PageFormat/feed``): RSS 2.0, Atom 1.0 or JSON Feed 1.1, recognised
/// by `Content-Type`, then by the body, and parsed by PostFeedFormats (libxml2 with no
/// network and no entities). The feed says everything a JSON description would: the
/// items, their parts, and the next page.
extension PageDecoder {
    /// Decodes one page of a feed fetched from `url`.
    ///
    /// The next page is the document's own (Atom's and an RSS channel's RFC 5005
    /// `<link rel="next">`, JSON Feed's `next_url`); without one, a WordPress RSS page (its
    /// `<generator>` names WordPress, or it was asked for with `?paged=N`) is followed by
    /// `?paged=N+1` of its URL (`paged` counted from 1), where a `404` ends the list; any
    /// other feed ends there (a static feed would answer every `?paged` with itself). An empty page, or a next URL that is the page
    /// itself, ends the list too. Posts are kept whole: the page size is the server's.
    ///
    /// - Throws: ``RepositoryError`` `.decoding` naming the URL, the page and what the body
    ///   is instead of a feed.
    func decodeFeed(body: Data, headers: HTTPHeaders, url: URL, key: PageKey, startIndex _: Int?) throws(RepositoryError) -> Page {
        // A feed's pages are the server's length: no number follows from the page size.
        let number: Int? = nil
        let document: FeedDocument
        do {
            document = try FeedParser.parse(body, contentType: headers["Content-Type"], baseURL: url)
        } catch {
            let line = error.line.map { " (line \($0))" } ?? ""
            throw RepositoryError(
                .decoding, url: url, page: key,
                message: "\(key.phrase(number: number)) of \(url.absoluteString): \(error.message)\(line); check that the "
                    + "base URL is the feed's own address (the one a feed reader subscribes to)")
        }
        var seen = Set<PostID>()
        var problems: [String] = []
        var posts: [Post] = []
        posts.reserveCapacity(document.items.count)
        for (index, item) in document.items.enumerated() {
            var post = item.post
            if post.imageURL == nil {
                // No picture of its own: the first image its body shows stands for it.
                post.imageURL = item.renderedBody().images.first { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
            }
            if let bodyFormat = backend.bodyFormat { post.bodyFormat = bodyFormat }
            guard seen.insert(post.id).inserted else {
                problems.append("post #\(index + 1) skipped: it repeats the id \(post.id) of an earlier item of the same page")
                continue
            }
            posts.append(post)
        }
        return Page(
            key: key, posts: posts, nextKey: posts.isEmpty ? nil : Self.nextFeedKey(after: url, document: document),
            number: number, decodingProblems: problems)
    }

    /// The key of the page after the feed page at `url`; `nil` at the end.
    static func nextFeedKey(after url: URL, document: FeedDocument) -> PageKey? {
        if let next = document.nextPageURL {
            return next == url ? nil : .link(next)
        }
        guard document.format == .rss, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return nil
        }
        var items = components.percentEncodedQueryItems ?? []
        let asked = items.last { $0.name == "paged" }.flatMap { $0.value.flatMap { Int($0) } }
        // Only WordPress pages its feed by `?paged=N` (its generator says so, or the page was
        // asked for by it): a static feed would answer every `?paged` with itself.
        let wordPress = document.generator?.lowercased().contains("wordpress") ?? false
        guard wordPress || asked != nil else { return nil }
        let current = asked ?? 1
        guard current >= 1, current < Int.max else { return nil }
        items.removeAll { $0.name == "paged" }
        items.append(URLQueryItem(name: "paged", value: String(current + 1)))
        components.percentEncodedQueryItems = items
        return components.url.map { .link($0) }
    }
}
