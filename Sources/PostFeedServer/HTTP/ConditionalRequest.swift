import Foundation

/// `If-None-Match` and `If-Modified-Since` evaluation (RFC 9110 §13.1.2, §13.1.3, §13.2.2).
enum ConditionalRequest {
    /// The parsed `If-None-Match` field: `*`, or a list of entity tags.
    enum IfNoneMatch: Equatable {
        case any
        case tags([EntityTag])
    }

    /// Parses `*` or a comma-separated list of (possibly weak) quoted tags. Malformed members
    /// are skipped rather than failing the request; a lone unquoted token is taken as a tag
    /// so that sloppy clients still get revalidation.
    static func parseIfNoneMatch(_ values: [String]) -> IfNoneMatch? {
        guard !values.isEmpty else { return nil }
        var tags: [EntityTag] = []
        for value in values {
            var rest = Substring(value)
            while true {
                rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
                guard !rest.isEmpty else { break }
                if rest.first == "*" { return .any }
                var isWeak = false
                if rest.hasPrefix("W/") || rest.hasPrefix("w/") {
                    isWeak = true
                    rest = rest.dropFirst(2)
                }
                if rest.first == "\"" {
                    rest = rest.dropFirst()
                    guard let close = rest.firstIndex(of: "\"") else { break }
                    tags.append(EntityTag(opaque: String(rest[..<close]), isWeak: isWeak))
                    rest = rest[rest.index(after: close)...]
                } else {
                    let end = rest.firstIndex(of: ",") ?? rest.endIndex
                    let token = rest[..<end].trimmingCharacters(in: .whitespaces)
                    if !token.isEmpty { tags.append(EntityTag(opaque: token, isWeak: isWeak)) }
                    rest = rest[end...]
                }
            }
        }
        return .tags(tags)
    }

    /// Whether a `GET` for a representation with `etag` and `lastModified` should be answered
    /// `304 Not Modified`. `If-None-Match`, when present, decides alone; `If-Modified-Since`
    /// is only consulted without it.
    static func isNotModified(
        ifNoneMatch: [String], ifModifiedSince: String?, etag: EntityTag, lastModified: Date?
    ) -> Bool {
        if let condition = parseIfNoneMatch(ifNoneMatch) {
            switch condition {
            case .any: return true
            case .tags(let tags): return tags.contains { $0.weaklyMatches(etag) }
            }
        }
        if let ifModifiedSince, let lastModified, let since = HTTPDate.parse(ifModifiedSince) {
            // HTTP dates have one-second resolution: compare whole seconds.
            return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        }
        return false
    }
}
