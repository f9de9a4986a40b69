import Foundation
import PostFeedModels

/// Why a body (a page, a post, a backend file) is not JSON, in words that fit on one line
/// after `the body is not JSON: `: the parser's own error with its place, or what the body
/// is instead — an HTML or XML page (quoted briefly), UTF-16, text that is not UTF-8 at
/// some byte, data still gzip-compressed.
///
/// ```swift
/// NotJSONBody.cause(of: error, in: Data("<html><body>Sign in".utf8), contentType: "text/html")
/// // it is an HTML page (Content-Type text/html) starting "<html><body>Sign in"
/// ```
///
/// Nothing from the body or its headers is quoted at length or with control characters:
/// a quote is cut to ``quoteLength`` characters, a Content-Type to ``contentTypeLength``.
enum NotJSONBody {
    /// How many characters of an HTML or XML page are quoted.
    static let quoteLength = 60
    /// How many characters of a Content-Type are named.
    static let contentTypeLength = 80

    /// `the body is not JSON: <cause>`, or `the body is empty, expected JSON`.
    static func sentence(for error: JSONParseError, in body: Data, contentType: String?) -> String {
        body.isEmpty ? "the body is empty, expected JSON" : "the body is not JSON: \(cause(of: error, in: body, contentType: contentType))"
    }

    /// What the body is instead of JSON, or where the parser stopped and why.
    static func cause(of error: JSONParseError, in body: Data, contentType: String?) -> String {
        body.withUnsafeBytes { bytes in
            cause(of: error, in: bytes, contentType: contentType.map { cleaned($0, cutTo: contentTypeLength) })
        }
    }

    private static func cause(of error: JSONParseError, in bytes: UnsafeRawBufferPointer, contentType: String?) -> String {
        let charset = contentType.flatMap(declaredCharset)
        let charsetNote = charset.map { "; its Content-Type declares charset \($0)" } ?? ""
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return "it is UTF-16 (it starts with the byte order mark \(hex(bytes[0])) \(hex(bytes[1]))), not UTF-8\(charsetNote)"
        }
        if bytes.starts(with: [0x1F, 0x8B]) {
            return "it is still gzip-compressed (it starts with 1f 8b): compressed twice, or sent without Content-Encoding: gzip"
        }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        if start < bytes.count, bytes[start] == UInt8(ascii: "<") {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
            let named = contentType.map { " (Content-Type \($0))" } ?? ""
            return "it is \(markupKind(rest, contentType: contentType))\(named) starting \"\(quote(rest))\""
        }
        if error.offset < bytes.count, !startsValidUTF8(UnsafeRawBufferPointer(rebasing: bytes[error.offset...])) {
            return "not UTF-8 at byte \(error.offset + 1) (0x\(hex(bytes[error.offset])))\(charsetNote)"
        }
        let place = error.line > 1 ? " (byte \(error.offset + 1))" : ""
        let saysJSON = contentType?.lowercased().contains("json") ?? true
        let named = saysJSON ? charsetNote : contentType.map { " (Content-Type \($0))" } ?? ""
        return "\(error)\(place)\(named)"
    }

    // MARK: What the body is

    /// `an HTML page`, `an XML document`, or `an HTML or XML page` when neither the body's
    /// start nor the Content-Type tells.
    private static func markupKind(_ bytes: UnsafeRawBufferPointer, contentType: String?) -> String {
        let head = String(decoding: bytes.prefix(16), as: UTF8.self).lowercased()
        let type = contentType?.lowercased() ?? ""
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || type.contains("html") { return "an HTML page" }
        if head.hasPrefix("<?xml") || type.contains("xml") { return "an XML document" }
        return "an HTML or XML page"
    }

    /// The body's first characters on one line, cut to ``quoteLength`` with `…`.
    private static func quote(_ bytes: UnsafeRawBufferPointer) -> String {
        // Four bytes a character at most: enough for the quote and a little over, to tell
        // whether it was cut.
        let text = String(decoding: bytes.prefix(quoteLength * 4 + 4), as: UTF8.self)
        return cleaned(text, cutTo: quoteLength)
    }

    /// `text` for one terminal line: line breaks, tabs and other white space become one
    /// space, control and format characters (escape sequences' ESC, bidi overrides) are
    /// dropped; cut to `length` characters with `…`.
    static func cleaned(_ text: String, cutTo length: Int) -> String {
        var result = String.UnicodeScalarView()
        var lastWasSpace = true  // no leading space
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: continue
            default:
                result.append(scalar)
                lastWasSpace = false
            }
        }
        let line = String(result).trimmingCharacters(in: .whitespaces)
        return line.count > length ? line.prefix(length - 1) + "…" : line
    }

    // MARK: Encodings

    /// The `charset` a Content-Type declares, when it is not UTF-8 (or its subset ASCII).
    private static func declaredCharset(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "charset" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'")).lowercased()
            return ["utf-8", "utf8", "us-ascii", "ascii"].contains(value) || value.isEmpty ? nil : value
        }
        return nil
    }

    /// Whether `bytes` start with a whole UTF-8 character.
    private static func startsValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        if case .error = parser.parseScalar(from: &iterator) { return false }
        return true
    }

    private static func hex(_ byte: UInt8) -> String {
        byte < 0x10 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }
}
