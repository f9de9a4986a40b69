import Foundation

/// The kinds of feed document ``FeedParser`` reads.
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
    /// RSS 2.0 (and RSS 0.9x / 1.0 RDF, read the same way).
    case rss
    /// Atom 1.0 (RFC 4287), paged by RFC 5005 links.
    case atom
    /// JSON Feed 1.0 and 1.1.
    case jsonFeed = "json-feed"

    /// Recognises a feed by its `Content-Type`, then by its body.
    ///
    /// A feed media type (`application/rss+xml`, `application/atom+xml`,
    /// `application/feed+json`) decides, unless the body is plainly another format (servers
    /// send Atom as `application/rss+xml`); a generic type (`text/xml`, `application/json`,
    /// `text/html`, none) leaves it to the body: its root element (`rss`, `rdf:RDF`,
    /// `feed`), or a JSON object naming a `https://jsonfeed.org/version/` version.
    /// Only the first 4 KiB of the body are looked at.
    ///
    /// ```swift
    /// FeedFormat.detect(contentType: "text/xml; charset=utf-8", body: data)  // .atom for <feed …>
    /// ```
    public static func detect(contentType: String?, body: some Collection<UInt8>) -> FeedFormat? {
        let declared = contentType.flatMap(format(mediaType:))
        let sniffed = sniff(body.prefix(4096))
        return sniffed ?? declared
    }

    /// The format a media type names, parameters ignored.
    static func format(mediaType: String) -> FeedFormat? {
        let type = mediaType.split(separator: ";", maxSplits: 1).first.map(WhiteSpace.trimmed)?
            .lowercased() ?? ""
        switch type {
        case "application/rss+xml", "application/rdf+xml", "application/x-rss+xml": return .rss
        case "application/atom+xml": return .atom
        case "application/feed+json": return .jsonFeed
        default: return nil
        }
    }

    /// The format the body's first bytes show: a JSON object with a JSON Feed version, or
    /// the root element of an XML document (after the BOM, declaration, comments,
    /// processing instructions and doctype).
    static func sniff(_ prefix: some Collection<UInt8>) -> FeedFormat? {
        var bytes = Array(prefix)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "{") {
            let text = String(decoding: bytes[index...], as: UTF8.self)
            return text.contains("jsonfeed.org/version/") || text.contains(#"jsonfeed.org\/version\/"#) ? .jsonFeed : nil
        }
        while index < bytes.count, bytes[index] == UInt8(ascii: "<") {
            let rest = bytes[(index + 1)...]
            if rest.starts(with: Array("!--".utf8)) {
                guard let end = find(Array("-->".utf8), in: bytes, from: index) else { return nil }
                index = end + 3
            } else if rest.first == UInt8(ascii: "?") || rest.first == UInt8(ascii: "!") {
                // A declaration, processing instruction or doctype (an internal subset's
                // brackets are skipped whole).
                var depth = 0
                var end = index + 1
                while end < bytes.count {
                    if bytes[end] == UInt8(ascii: "[") { depth += 1 }
                    if bytes[end] == UInt8(ascii: "]") { depth -= 1 }
                    if bytes[end] == UInt8(ascii: ">"), depth <= 0 { break }
                    end += 1
                }
                guard end < bytes.count else { return nil }
                index = end + 1
            } else {
                var end = index + 1
                while end < bytes.count, !([0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[end])) {
                    end += 1
                }
                let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                let local = name.split(separator: ":").last.map(String.init) ?? name
                switch local {
                case "rss", "RDF": return .rss
                case "feed": return .atom
                default: return nil
                }
            }
            skipSpace()
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for position in start...(bytes.count - needle.count) where bytes[position..<(position + needle.count)].elementsEqual(needle) {
            return position
        }
        return nil
    }
}
