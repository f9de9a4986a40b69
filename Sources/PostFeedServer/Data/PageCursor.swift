import Foundation

/// The opaque `cursor` of PostFeed's cursor mode: base64url (no padding) of `o:<offset>`.
///
/// Clients must treat it as opaque; the encoding is documented here only for debugging.
enum PageCursor {
    static func encode(offset: Int) -> String {
        Data("o:\(offset)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The offset in `cursor`, or `nil` when it is not one this server issues.
    static func decode(_ cursor: String) -> Int? {
        guard !cursor.isEmpty, cursor.count <= 64,
            cursor.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("o:"), let offset = Int(text.dropFirst(2)), offset >= 0,
            encode(offset: offset) == cursor  // only the canonical spelling
        else { return nil }
        return offset
    }
}
