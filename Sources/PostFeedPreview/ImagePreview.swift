import PostFeed
import PostFeedImaging

/// An image drawn for a terminal: the bytes to write, and how many cells they cover.
public struct ImagePreview: Sendable, Equatable {
    /// Where the preview came from.
    public enum Source: String, Sendable, Hashable {
        /// Read from the thumbnail cache: the original was not decoded.
        case thumbnail
        /// Decoded from the original and rendered now (and stored as a thumbnail).
        case rendered
    }

    /// What to write to the terminal: symbols with colour escapes, or a kitty, iTerm2 or
    /// sixel sequence. Symbols end each row but the last with a newline; nothing ends with
    /// one. Empty for the `none` protocol.
    public var text: String
    /// The cells drawn (width in columns, height in rows), within the box asked for.
    public var cells: PixelSize
    /// The protocol ``text`` speaks.
    public var imageProtocol: ImageProtocol
    /// Thumbnail cache or fresh render.
    public var source: Source

    /// Creates a preview from its parts.
    public init(text: String, cells: PixelSize, imageProtocol: ImageProtocol, source: Source) {
        self.text = text
        self.cells = cells
        self.imageProtocol = imageProtocol
        self.source = source
    }
}
