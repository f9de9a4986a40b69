import Foundation

// MARK: - Pages longer than asked for
//
// A server that ignores the page size sends more posts than asked for. The decoder keeps
// the first page-size posts of such a page in page-number and offset styles and counts
// the rest in `Page.sentPostCount`; the feeds say so once, and a long page that repeats
// what was shown already ends the walk (infinite) or is past the end (paged).

extension Page {
    /// The warning for a page the decoder cut to `pageSize` posts, or `nil` when it was not:
    /// `the server sent 247 posts for page 1, asked for 10 with limit=10: it ignores the
    /// page size; showing the first 10 of each page (is "limit" its page-size parameter?)`.
    func longPageWarning(pageSize: Int, limitParameter: String?) -> String? {
        guard let sent = sentPostCount else { return nil }
        let asked = limitParameter.map { " with \($0)=\(pageSize)" } ?? ""
        let hint = limitParameter.map { " (is \"\($0)\" its page-size parameter?)" } ?? ""
        return "the server sent \(sent) posts for \(key.phrase(number: number)), asked for \(pageSize)\(asked): it ignores "
            + "the page size; showing the first \(pageSize) of each page\(hint)"
    }

    /// Why a cut page holding only posts already shown is no progress: `it sent 247 posts,
    /// asked for 10`; `nil` when the page was not cut.
    func longPageReason(pageSize: Int) -> String? {
        sentPostCount.map { "the server ignores the page size (it sent \($0) posts, asked for \(pageSize))" }
    }
}

extension PostRepository {
    /// ``Page/longPageWarning(pageSize:limitParameter:)`` at this repository's page size
    /// and limit parameter: what either feed warns once.
    func longPageWarning(for page: Page) -> String? {
        page.longPageWarning(pageSize: pageSize, limitParameter: backend.pagination.limitParameter)
    }
}
