import Foundation

/// A usage error (exit status 64) as postfeed prints it: one line saying what is wrong,
/// then at most one line saying where help is — not ArgumentParser's 3–10 lines (the
/// error, a "Help:" line, each allowed value on its own line, the whole usage synopsis).
///
/// ```
/// Error: --images 'foo' is not valid; use one of auto, kitty, iterm, sixel, symbols, none.
/// See 'postfeed browse --help' for more information.
/// ```
enum UsageErrorText {
    /// Help text longer than this is left to `--help` rather than appended.
    static let longestHelp = 60

    /// `fullMessage` (ArgumentParser's `fullMessage(for:)`) condensed to one or two lines.
    static func condensed(_ fullMessage: String) -> String {
        let lines = fullMessage.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var error: [String] = []
        var choices: [String] = []
        var help: String?
        var hint: String?
        var section = "error"
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Help:") {
                section = "help"
                help = helpText(trimmed)
            } else if trimmed.hasPrefix("Usage:") {
                section = "usage"
            } else if trimmed.hasPrefix("See '") {
                hint = trimmed
            } else if section == "error" {
                if trimmed.hasPrefix("- ") {
                    choices.append(String(trimmed.dropFirst(2)))
                } else {
                    error.append(trimmed)
                }
            }
        }
        var first = rephrased(error.joined(separator: " "))
        if !choices.isEmpty {
            first = first.replacingOccurrences(of: ". Please provide one of the following:", with: "")
            first += "; use one of \(choices.joined(separator: ", "))."
        } else if let help, help.count <= longestHelp, first.hasSuffix(" is not valid") {
            first += " (\(help))"
        }
        if !first.hasPrefix("Error: ") { first = "Error: " + first }
        return [first, hint].compactMap { $0 }.joined(separator: "\n")
    }

    /// "The value 'abc' is invalid for '--page-size <page-size>'" → "--page-size 'abc' is not valid".
    private static func rephrased(_ text: String) -> String {
        let prefix = "Error: The value '"
        guard text.hasPrefix(prefix),
              let forRange = text.range(of: "' is invalid for '", options: .backwards) else { return text }
        let value = text[text.index(text.startIndex, offsetBy: prefix.count)..<forRange.lowerBound]
        let rest = text[forRange.upperBound...]
        let option = rest.prefix { $0 != " " && $0 != "'" }
        guard option.hasPrefix("-") else { return text }
        let after = rest.drop { $0 != "'" }.dropFirst()
        // A transform's own message already names the option and the value.
        if after.hasPrefix(": ") { return "Error: " + after.dropFirst(2) }
        return "Error: \(option) '\(value)' is not valid" + after
    }

    /// "Help:  --page-size <page-size>  Posts per page, 1…100." → "posts per page, 1…100".
    private static func helpText(_ line: String) -> String? {
        let parts = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard parts.count >= 3, var text = parts.last else { return nil }
        if text.hasSuffix(".") { text.removeLast() }
        guard let first = text.first else { return nil }
        return first.lowercased() + text.dropFirst()
    }
}
