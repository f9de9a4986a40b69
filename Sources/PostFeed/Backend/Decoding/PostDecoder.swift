import Foundation
import PostFeedFormats

/// Turns one item of a page body into a ``Post`` with a ``FieldMapping``.
///
/// For each part the first candidate field present and not null is used. Only `id` and
/// `title` are required: a post whose `id` or `title` is missing or of the wrong type is
/// an error (``PageDecoder`` skips that one post with a warning, and fails the page only
/// when no post of it decodes: then the mapping is wrong). A post without a body has an
/// empty one; image, author, date and popularity that are missing are left out, and so
/// are those of the wrong type (`"createdAt": "9999-99-99"`, `"popularity": "high"`),
/// each noted in `notes` so the reader is told once.
///
/// Relative image URLs are resolved against the base URL, so ``Post/imageURL`` is always
/// absolute after decoding.
struct PostDecoder: Sendable {
    let fields: FieldMapping
    /// What relative image URLs are resolved against: the base URL without its query
    /// (``BackendDescription/rootURLText``) and that query, which the image gets too.
    let imageRoot: String
    let imageQuery: String?
    /// The backend's ``BackendDescription/bodyFormat``, given to every post, and how a
    /// title taken from the body reads it (`nil`: as the body shows).
    let bodyFormat: PostBodyFormat?

    init(fields: FieldMapping, backend: BackendDescription) {
        self.fields = fields
        self.bodyFormat = backend.bodyFormat
        self.imageRoot = backend.rootURLText
        self.imageQuery = backend.baseQuery
    }

    /// What is wrong with one field of an item.
    struct FieldProblem: Error, Sendable {
        /// `field "title" missing (tried "title", "name")`, `field "id" is 1.5, expected a string or a whole number …`.
        let message: String
    }

    func decode(_ item: JSONValue) throws(FieldProblem) -> Post {
        var notes: [String] = []
        return try decode(item, notes: &notes)
    }

    /// Decodes `item`; each optional field left out for its type is added to `notes`
    /// (`field "createdAt" is "9999-99-99", expected an ISO-8601 date`).
    func decode(_ item: JSONValue, notes: inout [String]) throws(FieldProblem) -> Post {
        guard case .object = item else {
            throw FieldProblem(message: "expected an object, got \(item.typeDescription)")
        }
        let id = try identifier(fields.id, in: item)
        var title: String
        if fields.titleFromBody {
            // A title field that is absent, null or blank gives way to the body's first line.
            title = try optional(fields.title, in: item, expected: "a string", Self.text) ?? ""
        } else {
            title = try required(fields.title, in: item, expected: "a string", Self.text)
        }
        func optionalPart<T>(_ names: [String], expected: String, _ convert: (JSONValue) -> T?) -> T? {
            do {
                return try optional(names, in: item, expected: expected, convert)
            } catch {
                notes.append(error.message)
                return nil
            }
        }
        let body = optionalPart(fields.body, expected: "a string", Self.text) ?? ""
        let author = optionalPart(fields.author, expected: "a string, a user id or an object with a name", Self.author)
        let image = optionalPart(fields.image, expected: "a URL string", Self.text)
        // "ISO-8601" stays the word (existing messages and tests); RFC 822 and epoch
        // seconds are read too.
        let createdAt = optionalPart(fields.createdAt, expected: "an ISO-8601 date", Self.date)
        let popularity = optionalPart(fields.popularity, expected: "a finite number") { $0.doubleValue.flatMap { $0.isFinite ? $0 : nil } }
        if fields.titleFromBody, title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            title = firstLine(of: body)
        }
        return Post(
            id: id, title: title, body: body, author: author?.isEmpty == false ? author : nil,
            imageURL: image.flatMap(resolveImageURL), createdAt: createdAt, popularity: popularity, bodyFormat: bodyFormat)
    }

    /// `text` as an absolute URL string, resolved against the base URL when relative; an
    /// empty or unresolvable text is kept as it is, so the reader is told the image is
    /// unavailable instead of nothing (``FeedClient/image(for:priority:)``).
    func resolveImageURL(_ text: String) -> String? {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return "" }
        // Reddit sends image URLs HTML-escaped (`…?width=640&amp;s=…`); `&amp;` is never
        // meant literally in a URL.
        if trimmed.contains("&amp;") { trimmed = trimmed.replacingOccurrences(of: "&amp;", with: "&") }
        // A bare word is a placeholder, not a file (Reddit's thumbnail `self`, `default`,
        // `nsfw`, `spoiler`): no image.
        if !trimmed.contains("/"), !trimmed.contains(".") { return nil }
        if let absolute = URL(string: trimmed), absolute.scheme != nil { return absolute.absoluteString }
        // Resolve against the base URL as a folder, so `images/a.png` under `http://h/v1`
        // is `http://h/v1/images/a.png` while `/images/a.png` stays at the root. The image
        // is the backend's own: it gets the base URL's query (an API key) too.
        let root = imageRoot + "/"
        guard let resolved = URL(string: trimmed, relativeTo: URL(string: root))?.absoluteURL,
              var components = URLComponents(url: resolved, resolvingAgainstBaseURL: false)
        else { return trimmed }
        if let query = imageQuery {
            components.percentEncodedQuery = [query, components.percentEncodedQuery].compactMap { $0 }.joined(separator: "&")
        }
        return components.url?.absoluteString
    }

    /// The first line of `body`'s text, as a reader sees it (HTML and Markdown rendered),
    /// cut to ``titleLength`` characters with `…`; empty when the body has no text.
    func firstLine(of body: String) -> String {
        let text: String =
            switch bodyFormat ?? PostBodyFormat.detected(in: body) {
            case .plain: body
            case .html: HTMLText.render(body).body
            case .markdown: MarkdownText.render(body).body
            }
        let line = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty } ?? ""
        return line.count > Self.titleLength ? line.prefix(Self.titleLength - 1) + "…" : line
    }

    /// The longest title taken from a body.
    static let titleLength = 100

    // MARK: Field lookup

    private func required<T>(
        _ names: [String], in item: JSONValue, expected: String, outOfRange: String? = nil, _ convert: (JSONValue) -> T?
    ) throws(FieldProblem) -> T {
        guard let value = try optional(names, in: item, expected: expected, outOfRange: outOfRange, convert) else {
            throw FieldProblem(message: Self.missing(names, in: item))
        }
        return value
    }

    /// The post's id: the first of `names` present and not null, a string or an integer
    /// number of any length (its digits are the id, see ``PostID/init(json:)``).
    private func identifier(_ names: [String], in item: JSONValue) throws(FieldProblem) -> PostID {
        for name in names {
            guard let value = item.value(atPath: name), !value.isNull else { continue }
            do {
                return try PostID(json: value)
            } catch {
                throw FieldProblem(message: "field \"\(name)\" \(error.message)")
            }
        }
        throw FieldProblem(message: Self.missing(names, in: item))
    }

    /// `field "title" missing (tried "title", "name")`; for a path that stops at an array
    /// or a value of another type, why: `field "media.2.url": index 2 out of range (…)`.
    private static func missing(_ names: [String], in item: JSONValue) -> String {
        let tried = names.count > 1 ? " (tried \(names.map { "\"\($0)\"" }.joined(separator: ", ")))" : ""
        let first = names.first ?? "?"
        if let reason = item.missingReason(atPath: first), !reason.hasSuffix("missing") {
            return "field \"\(first)\" missing: \(reason)\(tried)"
        }
        return "field \"\(first)\" missing\(tried)"
    }

    /// The first of `names` present and not null, converted; throws naming the field when
    /// it cannot be (a number no Swift number holds is "out of range", with `outOfRange`
    /// or `expected` saying what would do).
    private func optional<T>(
        _ names: [String], in item: JSONValue, expected: String, outOfRange: String? = nil, _ convert: (JSONValue) -> T?
    ) throws(FieldProblem) -> T? {
        for name in names {
            guard let value = item.value(atPath: name), !value.isNull else { continue }
            guard let converted = convert(value) else {
                if case .number(let literal) = value, value.isOutOfRange {
                    // A server's literal may be thousands of digits long: its ends are enough.
                    let shown = literal.utf8.count > 40 ? "\(literal.prefix(24))…\(literal.suffix(8))" : literal
                    throw FieldProblem(message: "field \"\(name)\" is \(shown), out of range (expected \(outOfRange ?? expected))")
                }
                let got: String =
                    if case .string(let text) = value { "\"\(text.prefix(40))\"" } else { value.typeDescription }
                throw FieldProblem(message: "field \"\(name)\" is \(got), expected \(expected)")
            }
            return converted
        }
        return nil
    }

    // MARK: Conversions

    private static func text(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// A name, `user 7` for a numeric user id, or the name inside a user object.
    private static func author(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text.trimmingCharacters(in: .whitespaces)
        case .number: return value.integerValue.map { "user \($0)" }
        case .object:
            for key in ["name", "username", "login"] {
                if case .string(let name)? = value[key], !name.isEmpty { return name }
            }
            let parts = ["firstName", "lastName"].compactMap { key -> String? in
                if case .string(let part)? = value[key], !part.isEmpty { return part }
                return nil
            }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        default: return nil
        }
    }

    /// ISO-8601 (with or without fractional seconds), or Unix time in seconds
    /// (milliseconds when the number is too large to be seconds).
    private static func date(_ value: JSONValue) -> Date? {
        switch value {
        case .string(let text):
            // Trimming goes through NSString on Linux: only when an end is white space.
            let padded = (text.unicodeScalars.first?.properties.isWhitespace ?? false)
                || (text.unicodeScalars.last?.properties.isWhitespace ?? false)
            let trimmed = padded ? text.trimmingCharacters(in: .whitespaces) : text
            // ISO-8601 with a zone first (the common case, fast); then RFC 3339 without a
            // zone (UTC: WordPress's `date_gmt`, older Lemmy), RFC 822 (feeds), and epoch
            // seconds written as a string.
            if let date = Post.parseDate(trimmed) ?? FeedDate.parseRFC3339(trimmed) { return date }
            if let first = trimmed.utf8.first, !(0x30...0x39).contains(first) { return FeedDate.parseRFC822(trimmed) }
            if trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E }), Double(trimmed) != nil {
                return date(.number(trimmed))
            }
            return FeedDate.parseRFC822(trimmed)
        case .number:
            guard let seconds = value.doubleValue else { return nil }
            return Date(timeIntervalSince1970: seconds > 100_000_000_000 ? seconds / 1000 : seconds)
        default: return nil
        }
    }
}
