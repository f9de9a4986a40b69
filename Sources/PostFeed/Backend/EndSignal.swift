/// One way a backend says the list has ended. In a config file's `"end"` array:
/// `"linkWithoutNext"`, `"totalReached"`, `"shortPage"`, `{"flagFalse": "hasMore"}`,
/// `{"fieldNull": "next"}`.
public enum EndSignal: Sendable, Hashable {
    /// The response has no `Link` with `rel="next"` (also when it has no `Link` at all, as
    /// json-server and GitHub answer when everything fits one page).
    case linkWithoutNext
    /// The posts up to this page's end reach the total. Needs a total and this page's
    /// position (page and offset styles, or cursor and link pages reached by walking).
    case totalReached
    /// A boolean body field is false (`hasMore`).
    case flagFalse(String)
    /// A body field is null or missing (`nextCursor`, json-server 1.x's `next`).
    case fieldNull(String)
    /// A page shorter than the page size.
    case shortPage
}
