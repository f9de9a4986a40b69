import PostFeed
import PostFeedImaging

/// How an image preview is drawn: the terminal protocol, its colours and the size of one
/// character cell. Part of every thumbnail's key: a preview drawn one way is never served
/// for another.
///
/// ```swift
/// let style = PreviewStyle.forTerminal(requested: .auto, environment: ProcessInfo.processInfo.environment,
///                                      isTerminal: isatty(STDOUT_FILENO) == 1)
/// ```
public struct PreviewStyle: Sendable, Equatable {
    /// The protocol, never `auto` (``forTerminal(requested:environment:isTerminal:sixelQuery:)``
    /// resolves it); `none` draws nothing.
    public var imageProtocol: ImageProtocol
    /// Symbol colours (`monochrome` under `NO_COLOR`: no colour escapes at all).
    public var colors: TerminalColors
    /// The symbols `symbols` draws with.
    public var symbols: TerminalImageRenderer.SymbolSet
    /// One cell in pixels, from the terminal when it says (`TIOCGWINSZ`), else 10×20.
    public var cellPixelSize: PixelSize

    /// A style as given; `auto` is taken as `symbols`.
    public init(
        imageProtocol: ImageProtocol, colors: TerminalColors = .trueColor,
        symbols: TerminalImageRenderer.SymbolSet = .standard, cellPixelSize: PixelSize = PixelSize(width: 10, height: 20)
    ) {
        self.imageProtocol = imageProtocol == .auto ? .symbols : imageProtocol
        self.colors = colors
        self.symbols = symbols
        self.cellPixelSize = cellPixelSize
    }

    /// Draws nothing.
    public static let none = PreviewStyle(imageProtocol: .none)

    /// The style for output to a terminal `environment` describes, `requested` being
    /// `--images`:
    /// - `none` → nothing is drawn.
    /// - `kitty`, `iterm`, `sixel`, `symbols` → that protocol, also into a pipe or a file
    ///   (asked for by name).
    /// - `auto` → nothing when the output is not a terminal or `TERM` is unset or `dumb`;
    ///   otherwise kitty, iTerm2 or sixel from `TERM`, `TERM_PROGRAM` and
    ///   `KITTY_WINDOW_ID`, else the device-attributes answer (`sixelQuery`, only asked then),
    ///   else symbols.
    ///
    /// Colours: `NO_COLOR` gives monochrome symbols (no escape sequence in the output),
    /// `COLORTERM=truecolor` true colour, otherwise the 256-colour palette.
    public static func forTerminal(
        requested: ImageProtocol, environment: [String: String], isTerminal: Bool,
        cellPixelSize: PixelSize = PixelSize(width: 10, height: 20),
        sixelQuery: () -> Bool = { false }
    ) -> PreviewStyle {
        let chosen: ImageProtocol = switch requested {
        case .auto: ImageProtocol.detect(environment: environment, isTerminal: isTerminal, sixelQuery: sixelQuery)
        default: requested
        }
        return PreviewStyle(
            imageProtocol: chosen, colors: TerminalColors.detect(environment: environment), cellPixelSize: cellPixelSize)
    }

    /// The renderer drawing in this style.
    var renderer: TerminalImageRenderer {
        TerminalImageRenderer(imageProtocol: imageProtocol, colors: colors, symbols: symbols, cellPixelSize: cellPixelSize)
    }

    /// What tells this style apart in a thumbnail's key, e.g. `symbols/256/all/10x20`.
    var keyComponent: String {
        let colorName = switch colors {
        case .trueColor: "24bit"
        case .indexed256: "256"
        case .monochrome: "mono"
        }
        let symbolName = switch symbols {
        case .standard: "standard"
        case .all: "all"
        case .halfBlocks: "half"
        }
        return "\(imageProtocol.rawValue)/\(colorName)/\(symbolName)/\(cellPixelSize.width)x\(cellPixelSize.height)"
    }
}
