/// How a post's title and body are written by its source: plain text, HTML (WordPress,
/// Mastodon, feeds' `content:encoded`), or Markdown (Lemmy). Decides how the text is made
/// readable on a terminal (PostFeedFormats' `Post.readableBody(baseURL:)`); the original
/// is kept as it came.
public enum PostBodyFormat: String, Codable, Sendable, Hashable, CaseIterable {
    /// Text shown as it is (control characters still dropped).
    case plain
    /// HTML: tags laid out, entities decoded, links numbered.
    case html
    /// Markdown: a CommonMark subset laid out, links numbered.
    case markdown
}
