import Foundation

/// The links of one or more RFC 8288 `Link` header fields.
///
/// Tolerant of what servers send: several fields, several links per field, commas and
/// semicolons inside `<…>` and quoted values, quoted or bare `rel`, several relations in one
/// `rel` (`rel="next last"`), any case and spacing. A link that cannot be read is skipped,
/// never the whole header.
///
/// ```swift
/// let links = LinkHeader(parsing: response.headers.values(for: "Link"), relativeTo: response.url)
/// links.url(forRelation: "next")   // http://…/posts?_page=3&_limit=10
/// ```
public struct LinkHeader: Sendable, Hashable {
    /// One link: its target and its relation types.
    public struct Link: Sendable, Hashable {
        /// The target, resolved against the base URL when it was relative.
        public var target: URL
        /// Relation types, lowercased (`next`, `prev`, `last`, …).
        public var relations: [String]
        /// The other parameters (`title`, `type`, …) by lowercased name, unquoted.
        public var parameters: [String: String]

        /// A link to `target` with its `rel` values (lowercased) and other parameters.
        public init(target: URL, relations: [String], parameters: [String: String] = [:]) {
            self.target = target
            self.relations = relations
            self.parameters = parameters
        }
    }

    /// Every link read, in order.
    public var links: [Link]

    /// Parses the values of every `Link` field of a response, in order.
    public init(parsing values: [String], relativeTo base: URL? = nil) {
        links = values.flatMap { value in
            var scanner = LinkHeaderScanner(text: value, base: base)
            return scanner.scanLinks()
        }
    }

    /// Parses one `Link` field value.
    public init(parsing value: String, relativeTo base: URL? = nil) {
        self.init(parsing: [value], relativeTo: base)
    }

    /// The first link whose relations include `relation` (case-insensitive).
    public func url(forRelation relation: String) -> URL? {
        let wanted = relation.lowercased()
        return links.first { $0.relations.contains(wanted) }?.target
    }
}

/// A one-pass reader of `link-value *( "," link-value )` (RFC 8288 §3).
private struct LinkHeaderScanner {
    let characters: [Character]
    let base: URL?
    var index = 0

    init(text: String, base: URL?) {
        characters = Array(text)
        self.base = base
    }

    mutating func scanLinks() -> [LinkHeader.Link] {
        var links: [LinkHeader.Link] = []
        while true {
            skip { $0.isWhitespace || $0 == "," }
            guard index < characters.count else { return links }
            guard characters[index] == "<" else {
                skipToNextLinkValue()
                continue
            }
            index += 1
            let reference = read { $0 != ">" }
            guard index < characters.count else { return links }  // no closing ">"
            index += 1
            let parameters = scanParameters()
            let trimmed = reference.trimmingCharacters(in: .whitespaces)
            guard let target = URL(string: trimmed, relativeTo: base)?.absoluteURL else { continue }
            // RFC 8288 §3.3: only the first "rel" counts.
            let relations = (parameters.first { $0.name == "rel" }?.value ?? "")
                .split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
            var others: [String: String] = [:]
            for parameter in parameters where parameter.name != "rel" && others[parameter.name] == nil {
                others[parameter.name] = parameter.value
            }
            links.append(LinkHeader.Link(target: target, relations: relations, parameters: others))
        }
    }

    /// Reads `*( OWS ";" OWS name [ "=" ( token / quoted-string ) ] )` up to the next "," or the end.
    private mutating func scanParameters() -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        while true {
            skip(\.isWhitespace)
            guard index < characters.count, characters[index] == ";" else {
                // Anything but ";" ends this link-value; skip junk up to the next ",".
                skipToNextLinkValue()
                return parameters
            }
            index += 1
            skip(\.isWhitespace)
            let name = read { $0 != "=" && $0 != ";" && $0 != "," && !$0.isWhitespace }.lowercased()
            skip(\.isWhitespace)
            var value = ""
            if index < characters.count, characters[index] == "=" {
                index += 1
                skip(\.isWhitespace)
                if index < characters.count, characters[index] == "\"" {
                    value = readQuotedString()
                } else {
                    value = read { $0 != ";" && $0 != "," }.trimmingCharacters(in: .whitespaces)
                }
            }
            if !name.isEmpty { parameters.append((name, value)) }
        }
    }

    /// Reads a quoted-string starting at `"`, honouring `\` escapes.
    private mutating func readQuotedString() -> String {
        index += 1
        var value = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == "\"" { return value }
            if character == "\\", index < characters.count {
                value.append(characters[index])
                index += 1
            } else {
                value.append(character)
            }
        }
        return value
    }

    /// Moves past the current link-value: to the next "," outside `<…>` and quotes.
    private mutating func skipToNextLinkValue() {
        var inQuotes = false
        var inBrackets = false
        while index < characters.count {
            let character = characters[index]
            if inQuotes {
                if character == "\\" { index += 1 } else if character == "\"" { inQuotes = false }
            } else if inBrackets {
                if character == ">" { inBrackets = false }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "<" {
                inBrackets = true
            } else if character == "," {
                return
            }
            index += 1
        }
    }

    private mutating func skip(_ predicate: (Character) -> Bool) {
        while index < characters.count, predicate(characters[index]) { index += 1 }
    }

    private mutating func read(while predicate: (Character) -> Bool) -> String {
        let start = index
        skip(predicate)
        return String(characters[start..<index])
    }
}
