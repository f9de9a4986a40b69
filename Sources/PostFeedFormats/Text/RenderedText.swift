/// Markup made into terminal text: the prose, and the links it referred to as `[n]`.
///
/// ```swift
/// let rendered = HTMLText.render(#"<p>See <a href="https://swift.org">Swift</a>.</p>"#)
/// rendered.body   // "See Swift [1]."
/// rendered.text   // "See Swift [1].\n\n[1] https://swift.org"
/// ```
public struct RenderedText: Sendable, Hashable {
    /// The prose: paragraphs separated by blank lines, `\n` between lines, no control
    /// characters, no trailing white space on any line.
    public var body: String
    /// The link targets, in order of first appearance: `links[0]` is `[1]` in ``body``.
    /// Absolute when the link was absolute or a base URL resolved it.
    public var links: [String]
    /// The sources of the images the markup shows (`[image: …]` in ``body``), in order,
    /// resolved like links: a post without an image of its own may use the first.
    public var images: [String]

    /// Makes a rendered text.
    public init(body: String, links: [String], images: [String] = []) {
        self.body = body
        self.links = links
        self.images = images
    }

    /// The link list as printed under a post: `[1] https://…`, one a line.
    public var references: String {
        links.enumerated().map { entry in
            // A link that cleaned down to nothing (an href of control characters) must not
            // leave `[n] ` with a trailing space.
            var line = Substring("[\(entry.offset + 1)] \(entry.element)")
            while line.last == " " { line.removeLast() }
            return String(line)
        }.joined(separator: "\n")
    }

    /// What a terminal shows: ``body``, then a blank line and ``references`` when there
    /// are links.
    public var text: String {
        links.isEmpty ? body : body.isEmpty ? references : body + "\n\n" + references
    }
}
