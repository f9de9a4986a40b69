import Foundation
import PostFeed
import PostFeedPreview

/// Prints `Encodable` values as stable, pretty JSON on stdout (`--json`).
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        // No URL's user info in any output, whatever value carries it (a post's image URL
        // resolved against a base URL with credentials): the authority ends at a quote, so
        // this never reaches past a JSON string.
        let text = BackendDescription.removingUserInfo(String(decoding: data, as: UTF8.self))
        try StandardStream.output.write(escapingControls(text) + "\n")
    }

    /// JSONEncoder escapes only what JSON requires (below U+0020); DEL, the C1 controls
    /// (U+0080…U+009F: CSI among them, which some terminals obey in UTF-8 too) and the line
    /// and paragraph separators are escaped here as well, so a server's text printed as JSON
    /// on a terminal stays text. Still the same JSON.
    static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
