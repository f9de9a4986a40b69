import Foundation
import PostFeed
import PostFeedPreview
import PostFeedFormats

/// What is known of a post's image when it is printed.
struct ImageSummary: Encodable {
    /// The image's URL; absent when the post names none (its image URL is empty: `error`
    /// says so), `""` when the post's text cannot be fetched (`error` quotes it).
    var url: String?
    var path: String?
    var width: Int?
    var height: Int?
    var format: String?
    var source: String?
    var stale: Bool?
    var error: String?
    /// `true` when the image was still loading as the page was printed (`--image-wait`):
    /// it finishes in the background and is cached for the next run.
    var loading: Bool?

    init(url: URL, response: ImageResponse, path: URL?) {
        self.url = BackendDescription.removingUserInfo(url.absoluteString)
        self.path = path.map(PostRenderer.displayPath)
        width = response.info.width
        height = response.info.height
        format = response.info.format.rawValue
        source = response.source.rawValue
        stale = response.isStale ? true : nil
    }

    init(url: URL?, error: String) {
        self.url = url.map { BackendDescription.removingUserInfo($0.absoluteString) }
        self.error = error
    }

    init(loading url: URL) {
        self.url = BackendDescription.removingUserInfo(url.absoluteString)
        loading = true
    }
}

/// One printed post (`--json` shape).
struct PostLine: Encodable {
    /// 1-based position in the feed.
    var position: Int
    var post: Post
    var image: ImageSummary?

    // No URL's user info reaches the output: `JSONOutput` removes it from all it prints.

    enum CodingKeys: String, CodingKey {
        case position, post, image
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position, forKey: .position)
        try container.encode(ReadablePostJSON(post), forKey: .post)
        try container.encodeIfPresent(image, forKey: .image)
    }
}

/// A post in `--json`: its fields as the backend sent them (the original `title` and
/// `body`, HTML and all), and beside them the text as people read it: `text`, the body laid
/// out with its links listed under it (``Post/readableBody(baseURL:)``), and `titleText`
/// when the readable title differs from the original (`It&#8217;s` → `It’s`).
struct ReadablePostJSON: Encodable {
    let post: Post

    init(_ post: Post) {
        self.post = post
    }

    enum CodingKeys: String, CodingKey {
        case text, titleText
    }

    func encode(to encoder: any Encoder) throws {
        try post.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(post.readableBody().text, forKey: .text)
        let title = post.readableTitle
        if title != post.title { try container.encode(title, forKey: .titleText) }
    }
}

/// Text output for posts: a compact line for lists, the full detail view for `show`.
enum PostRenderer {
    /// A post's entry in a list; its title cut to `width` columns (on a terminal, its
    /// width; into a pipe or a file, never cut: text there is data).
    static func listEntry(_ line: PostLine, width: Int = titleWidth) -> String {
        let post = line.post.headingForTerminal
        let number = String(line.position).leftPadded(to: 4)
        // Cut by display columns (CJK, emoji, flags and Hangul take 2), not characters.
        var text = "\(number). \(DisplayWidth.cut(post.title, toColumns: max(20, width - 6)))"
        let meta = metaLine(post)
        if !meta.isEmpty { text += "\n      \(meta)" }
        if let image = line.image { text += "\n      \(imageLine(image))" }
        return text
    }

    /// The width list entries cut titles to: the terminal's, or none into a pipe or a file.
    /// Asked once per batch of entries where it can be (a system call or two each time).
    static var titleWidth: Int { Terminal.standardOutputIsTerminal ? Terminal.width : .max }

    static func detail(_ post: Post, image: ImageSummary?) -> String {
        let post = post.forTerminal
        let width = min(Terminal.width, 100)
        // The title and the meta line wrap at the body's width when they are longer (the
        // title under itself, after "#id  "); a line that fits is kept as it is.
        let head = "#\(post.id)  "
        var lines: [String]
        if head.count + DisplayWidth.of(post.title) <= width {
            lines = [head + post.title]
        } else {
            let title = wrap(post.title, width: max(10, width - head.count))
            let indent = String(repeating: " ", count: head.count)
            lines = [head + (title.first ?? "")] + title.dropFirst().map { indent + $0 }
        }
        let meta = metaLine(post)
        if !meta.isEmpty { lines += DisplayWidth.of(meta) <= width ? [meta] : wrap(meta, width: width) }
        lines.append("")
        lines.append(contentsOf: wrap(post.body, width: width))
        lines.append("")
        lines += imageLines(image)
        return lines.joined(separator: "\n")
    }

    /// Author, date, popularity and id of a post already cleaned (``Post/forTerminal``).
    static func metaLine(_ post: Post) -> String {
        var parts: [String] = []
        if let author = post.author { parts.append(author) }
        if let date = post.createdAt { parts.append(date.formatted(.iso8601.year().month().day())) }
        if let popularity = post.popularity {
            // Two decimals, but never hundreds of digits for a server's 1e308.
            parts.append(abs(popularity) < 1e9 ? String(format: "popularity %.2f", popularity) : String(format: "popularity %.3g", popularity))
        }
        parts.append("id \(post.id)")
        return parts.joined(separator: " · ")
    }

    /// The detail view's image lines (`show`, browse's `o`): the image's address, then what
    /// became of it; one line when there is no image, or no address to name.
    static func imageLines(_ image: ImageSummary?) -> [String] {
        guard let image else { return ["image: none"] }
        guard let url = image.url else { return [imageLine(image)] }
        return ["image: \(ImagePipelineError.shown(url.terminalLine))", "       \(imageLine(image))"]
    }

    /// What became of a post's image, one line: `image: none (the post's image URL is empty)`
    /// when the post names no image URL.
    static func imageLine(_ image: ImageSummary) -> String {
        if let error = image.error {
            guard let url = image.url else { return "image: none (\(error.terminalLine))" }
            // A post may name a 100 KB URL: the line shows its start (`--json` has it whole).
            let shown = ImagePipelineError.shown(url.terminalLine)
            return "image unavailable: \(url.isEmpty ? "" : shown + ": ")\(error.terminalLine)"
        }
        if image.loading == true { return "image still loading; cached for the next run when it arrives" }
        var text = "image"
        if let width = image.width, let height = image.height, let format = image.format {
            text += " \(width)×\(height) \(format)"
        }
        if let path = image.path { text += " at \(path)" }
        if let source = image.source { text += " (\(source)\(image.stale == true ? ", stale" : ""))" }
        return text
    }

    /// A path relative to the working directory when it is inside it.
    static func displayPath(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(cwd) ? String(path.dropFirst(cwd.count)) : path
    }

    /// `text`'s paragraphs wrapped at `width` columns (``TextWrap``): words wider than a line
    /// kept whole, so a URL stays one piece to copy.
    static func wrap(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
            TextWrap.lines(paragraph, columns: width, breakingLongWords: false)
        }
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
