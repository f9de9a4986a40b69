/// One way a backend says the list has ended. In a config file's `"end"` array:
/// `"linkWithoutNext"`, `"totalReached"`, `"shortPage"`, `{"flagFalse": "hasMore"}`,
/// `{"fieldNull": "next"}`, `{"fieldMissing": "topic_list.more_topics_url"}`,
/// `{"pageCountField": "nbPages"}`, `{"pageCountHeader": "X-WP-TotalPages"}`.
public enum EndSignal: Sendable, Hashable {
    /// The response has a `Link` header without `rel="next"`. A response without any `Link`
    /// header says nothing either way (json-server sends none when everything fits one
    /// page: its total says so).
    case linkWithoutNext
    /// The posts up to this page's end reach the total. Needs a total and this page's
    /// position (page and offset styles, or cursor and link pages reached by walking).
    case totalReached
    /// A boolean body field is false (`hasMore`).
    case flagFalse(String)
    /// A body field is null (`nextCursor`, json-server 1.x's `next`); a missing field says
    /// nothing (a cursor style still ends when no next cursor can be read).
    case fieldNull(String)
    /// A page shorter than the page size: a heuristic, used only when none of the other
    /// signals is present in the response.
    case shortPage
    /// A body field (a dotted path) is absent or null: Discourse's
    /// `topic_list.more_topics_url` is left out on the last page.
    case fieldMissing(String)
    /// The page's 1-based number reaches the page count in a body field (Algolia's
    /// `nbPages`, counted from 1 whatever the first page's number).
    case pageCountField(String)
    /// The page's 1-based number reaches the page count in a header (WordPress's
    /// `X-WP-TotalPages`).
    case pageCountHeader(String)
}
