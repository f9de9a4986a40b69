import Foundation

/// The message a server put in an error body, for error messages: PostFeed's
/// `{"error":{"message":…}}`, the common `{"error":"…"}`, `{"message":…}`, `{"detail":…}`,
/// or the first line of a short text body.
enum ServerErrorMessage {
    static func from(_ body: Data) -> String? {
        guard !body.isEmpty, body.count <= 16_384 else { return nil }
        if let json = try? JSONValue.parse(body) {
            for path in ["error.message", "error", "message", "detail", "title"] {
                if case .string(let text)? = json.value(atPath: path), !text.isEmpty { return clipped(text) }
            }
            return nil
        }
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingCharacters(in: .whitespaces)
        // An HTML error page says nothing useful in its first line.
        guard let line, !line.isEmpty, !line.hasPrefix("<") else { return nil }
        return clipped(line)
    }

    private static func clipped(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
