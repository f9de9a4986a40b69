import Foundation
import PostFeed
import PostFeedPreview

/// The detail view (`o`) laid out for a window: its lines wrapped to the width (a word
/// wider than the window broken, never cut), as many as fit from the scroll position, and a
/// closing line saying how to scroll and go back when the post is taller than the window.
/// The help (`?`) is laid out and scrolled the same way. Pure, so the layout is testable
/// without a terminal; ``BrowseScreen`` keeps the scroll position and lays the view out
/// again for every frame (a resize re-wraps at once).
enum BrowseDetailLayout {
    /// One frame of the detail view.
    struct Page: Equatable {
        /// Exactly `rows` lines: the text from ``scroll``, then the closing line.
        var lines: [String]
        /// The scroll position used (clamped).
        var scroll: Int
        /// The furthest scroll position; 0 when everything fits.
        var maxScroll: Int
        /// The image is drawn: the view is at its top (an image cannot be drawn in part).
        var showsImage: Bool
    }

    /// The post's lines before wrapping: title, meta line, body (its own line breaks kept),
    /// the image's address and what became of it. Cleaned of controls.
    static func lines(of post: Post, image: ImageSummary?) -> [String] {
        let post = post.forTerminal
        var lines = ["#\(post.id)  \(post.title)"]
        let meta = PostRenderer.metaLine(post)
        if !meta.isEmpty { lines.append(meta) }
        lines.append("")
        lines += post.body.components(separatedBy: "\n")
        lines.append("")
        lines += PostRenderer.imageLines(image).map(\.terminalLine)
        return lines
    }

    /// The view for a window of `rows` × `columns`, scrolled to `scroll` lines: `above` (the
    /// image's blank rows, or a line saying why it is not drawn) then `text`, each wrapped.
    /// `leave` says what any other key does, after "any key" ("closes the help");
    /// `hangingIndent` starts the text's wrapped lines at that column (the help's keys).
    static func page(
        above: [String], text: [String], note: String?, scroll: Int, rows: Int, columns: Int, leave: String = "to go back",
        hangingIndent: Int = 0
    ) -> Page {
        let columns = max(1, columns)
        let room = max(1, rows - 1)
        // The note (the post is gone upstream) heads the text, wrapped: a closing line
        // holding it too would be cut on a narrow window.
        let noted = note.map { [$0] } ?? []
        let wrapped = above.flatMap { BrowseLayout.wrap($0.terminalLine, toColumns: columns) }
            + (noted + text).flatMap { BrowseLayout.wrap($0.terminalLine, toColumns: columns, hangingIndent: hangingIndent) }
        let maxScroll = max(0, wrapped.count - room)
        let scroll = min(max(0, scroll), maxScroll)
        var shown = Array(wrapped.dropFirst(scroll).prefix(room))
        shown += Array(repeating: "", count: room - shown.count)
        let closing: String
        if maxScroll == 0 {
            closing = "(any key \(leave))"
        } else {
            let last = scroll + min(room, wrapped.count - scroll)
            let more = scroll < maxScroll ? "more below · " : "end · "
            closing = "lines \(scroll + 1)–\(last) of \(wrapped.count), \(more)j/k/space/b scroll, any other key \(leave)"
        }
        let lines = (shown + [closing.terminalLine]).map { DisplayWidth.cut($0, toColumns: columns) }
        return Page(lines: Array(lines.suffix(max(1, rows))), scroll: scroll, maxScroll: maxScroll, showsImage: scroll == 0)
    }

    /// The lines `key` scrolls a view on a window `rows` high by: j/k (and the arrows) one,
    /// space/b (and Page Down/Up) a window less the closing line and one line kept; `nil`
    /// for any other key (which leaves the view).
    static func scrollDelta(for key: RawTerminal.Key, rows: Int) -> Int? {
        let screen = max(1, rows - 2)
        switch key {
        case .character("j"), .down: return 1
        case .character("k"), .up: return -1
        case .character(" "), .pageDown: return screen
        case .character("b"), .pageUp: return -screen
        default: return nil
        }
    }

    /// The scroll position after moving `delta` lines from `scroll`: within 0…`maxScroll`,
    /// and never inside the image's `imageRows` (an image cannot be drawn in part): down
    /// from the top goes past it, up into it goes to the top.
    static func scrolled(_ scroll: Int, by delta: Int, maxScroll: Int, imageRows: Int) -> Int {
        let target = min(max(0, PlaceConverter.saturatingAdd(scroll, delta)), maxScroll)
        guard imageRows > 0, target > 0, target < imageRows else { return target }
        return delta > 0 ? min(imageRows, maxScroll) : 0
    }
}
