/// How images are drawn in a terminal. `auto` picks one from the environment; `none`
/// draws nothing (no escape sequence at all).
public enum ImageProtocol: String, Sendable, CaseIterable {
    case auto, kitty, iterm, sixel, symbols, none

    /// The protocol the terminal described by `environment` supports, never `auto`:
    /// not a terminal, no `TERM` or `TERM=dumb` → `none`; kitty (`KITTY_WINDOW_ID`,
    /// `TERM=xterm-kitty`, ghostty) → `kitty`; iTerm2 and WezTerm (`TERM_PROGRAM`) →
    /// `iterm`; terminals known for sixel (mlterm, foot, contour, yaft) → `sixel`;
    /// anything else → `symbols`. (No device-attributes query is made: a sixel terminal
    /// not in that list gets symbols.)
    public static func detect(environment: [String: String], isTerminal: Bool) -> ImageProtocol {
        guard isTerminal else { return .none }
        let term = environment["TERM", default: ""].lowercased()
        let program = environment["TERM_PROGRAM", default: ""].lowercased()
        if term.isEmpty || term == "dumb" { return .none }
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty"
            || program == "ghostty" {
            return .kitty
        }
        if program == "iterm.app" || program == "wezterm" || environment["ITERM_SESSION_ID"] != nil {
            return .iterm
        }
        if ["mlterm", "foot", "contour", "yaft"].contains(where: { term.hasPrefix($0) }) {
            return .sixel
        }
        return .symbols
    }

    /// This protocol with `auto` replaced by detection, and anything but `none` turned to
    /// `none` when the output is not a terminal (no escape sequences into a pipe).
    public func resolved(environment: [String: String], isTerminal: Bool) -> ImageProtocol {
        guard isTerminal else { return .none }
        return self == .auto ? Self.detect(environment: environment, isTerminal: isTerminal) : self
    }
}

/// The colours symbols are drawn with.
public enum TerminalColors: Sendable, Equatable {
    /// 24-bit colour escapes.
    case trueColor
    /// The xterm 256-colour palette.
    case indexed256
    /// The terminal's own foreground and background: no colour escapes (`NO_COLOR`).
    case monochrome

    /// `NO_COLOR` set to a non-empty value (no-color.org: an empty one does not count, as
    /// in `browse`) or `TERM=dumb` → monochrome; `COLORTERM=truecolor|24bit` → true
    /// colour; otherwise 256 colours.
    public static func detect(environment: [String: String]) -> TerminalColors {
        if !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb" { return .monochrome }
        let colorTerm = environment["COLORTERM", default: ""].lowercased()
        return colorTerm == "truecolor" || colorTerm == "24bit" ? .trueColor : .indexed256
    }
}

extension ImageProtocol {
    /// `detect(environment:isTerminal:)`, and when that finds only `symbols`, a
    /// device-attributes query asked through `sixelQuery` (normally
    /// `SixelQuery.terminalSupportsSixel()`): a yes means `sixel`.
    public static func detect(
        environment: [String: String], isTerminal: Bool, sixelQuery: () -> Bool
    ) -> ImageProtocol {
        let detected = detect(environment: environment, isTerminal: isTerminal)
        return detected == .symbols && sixelQuery() ? .sixel : detected
    }
}
