import ArgumentParser
import Foundation
import PostFeed
import PostFeedPreview
import PostFeedImaging

extension ImageProtocol: ExpressibleByArgument {}

/// `--images auto|kitty|iterm|sixel|symbols|none`: how image previews are drawn (`show`;
/// `browse` takes the same group).
struct ImageDisplayOptions: ParsableArguments {
    @Option(
        name: .customLong("images"),
        help: ArgumentHelp(
            "How to draw image previews: auto (from TERM, TERM_PROGRAM, KITTY_WINDOW_ID and the terminal's answer to a device-attributes query; nothing when not a terminal or TERM=dumb), kitty, iterm, sixel, symbols (NO_COLOR: monochrome), or none.",
            valueName: "mode"))
    var images: ImageProtocol = .auto

    /// The style for standard output: see ``PreviewStyle/forTerminal(requested:environment:isTerminal:cellPixelSize:sixelQuery:)``.
    /// The device-attributes query for sixel is asked only for `auto` on a terminal whose
    /// variables name no graphics protocol, and waits at most 150 ms.
    func style(environment: [String: String] = ProcessInfo.processInfo.environment) -> PreviewStyle {
        let isTerminal = Terminal.standardOutputIsTerminal
        return PreviewStyle.forTerminal(
            requested: images, environment: environment, isTerminal: isTerminal,
            cellPixelSize: Terminal.cellPixelSize ?? PixelSize(width: 10, height: 20),
            sixelQuery: { isatty(STDIN_FILENO) == 1 && SixelQuery.terminalSupportsSixel(timeout: .milliseconds(150)) })
    }

    /// The box a preview above text gets: the terminal's width, at most half its height
    /// (piped: from COLUMNS and LINES, else 80 × 12; see ``Terminal/size``).
    static var previewBox: PixelSize {
        let size = Terminal.size
        return PixelSize(width: max(1, size.columns), height: max(1, size.rows / 2))
    }
}
