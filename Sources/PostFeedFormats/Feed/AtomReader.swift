import Foundation

/// Atom 1.0 (RFC 4287), with RFC 5005's `<link rel="next">` for paging and `xml:base`
/// for relative references.
struct AtomReader {
    let baseURL: URL?
    /// The root's namespace: Atom 1.0's, or whatever an older or sloppier feed uses.
    var namespace: String? = XMLNamespace.atom

    func read(root: XMLElement) -> FeedDocument {
        let base = FeedReading.rebase(baseURL, by: root.attribute("base", in: XMLNamespace.xml))
        var document = FeedDocument(format: .atom)
        var feedAuthor: String?
        var entries: [XMLElement] = []
        for element in root.children where element.namespace == namespace {
            switch element.localName {
            case "title":
                document.title = Self.line(fromTextConstruct: element)
            case "link":
                let href = FeedReading.webURL(element.attribute("href"), base: Self.base(of: element, inside: base))
                switch element.attribute("rel") ?? "alternate" {
                case "alternate" where element.attribute("type").map(Self.isHTMLType) ?? true:
                    document.homeURL = document.homeURL ?? href
                case "next":
                    document.nextPageURL = href
                default:
                    break
                }
            case "author":
                feedAuthor = feedAuthor ?? element.child("name", in: namespace).flatMap { FeedReading.line($0.text) }
            case "entry":
                entries.append(element)
            default:
                break
            }
        }
        document.items = entries.map { entry(from: $0, base: base, feedAuthor: feedAuthor) }
        return document
    }

    private func entry(from element: XMLElement, base feedBase: URL?, feedAuthor: String?) -> FeedItem {
        let base = Self.base(of: element, inside: feedBase)
        var id: String?
        var title: String?
        var link: URL?
        var content: FeedText?
        var summary: FeedText?
        var author: String?
        var published: Date?
        var updated: Date?
        var enclosureImage: URL?
        var media = MediaImages()
        var contentBase: URL?
        for child in element.children {
            guard child.namespace == namespace else {
                media.consider(child, base: base)
                continue
            }
            switch child.localName {
            case "id":
                id = FeedReading.identifier(child.text)
            case "title":
                title = Self.line(fromTextConstruct: child)
            case "link":
                let href = FeedReading.webURL(child.attribute("href"), base: Self.base(of: child, inside: base))
                switch child.attribute("rel") ?? "alternate" {
                case "alternate":
                    if link == nil || child.attribute("type").map(Self.isHTMLType) == true { link = href ?? link }
                case "enclosure" where FeedReading.isImage(type: child.attribute("type")):
                    enclosureImage = enclosureImage ?? href
                default:
                    break
                }
            case "content":
                // Out-of-line content (`src=`) is not fetched.
                if child.attribute("src") == nil {
                    content = Self.text(fromTextConstruct: child)
                    contentBase = Self.base(of: child, inside: base)
                }
            case "summary":
                summary = Self.text(fromTextConstruct: child)
            case "author":
                author = author ?? child.child("name", in: namespace).flatMap { FeedReading.line($0.text) }
            case "published":
                published = child.trimmedText.flatMap(FeedDate.parseRFC3339)
            case "updated":
                updated = child.trimmedText.flatMap(FeedDate.parseRFC3339)
            default:
                break
            }
        }
        let body = content ?? summary
        let identifier = id ?? link?.absoluteString
            ?? FeedReading.contentHash(title, (published ?? updated).map { String($0.timeIntervalSince1970) }, body?.original)
        return FeedItem(
            id: identifier, title: title, content: body, summary: content == nil ? nil : summary,
            author: author ?? feedAuthor, published: published ?? updated, updated: updated,
            imageURL: media.best ?? enclosureImage, link: link, contentBaseURL: contentBase ?? base ?? link)
    }

    private static func base(of element: XMLElement, inside base: URL?) -> URL? {
        FeedReading.rebase(base, by: element.attribute("base", in: XMLNamespace.xml))
    }

    private static func isHTMLType(_ type: String) -> Bool {
        let lowered = type.lowercased()
        return lowered.hasPrefix("text/html") || lowered.hasPrefix("application/xhtml")
    }

    /// An Atom text construct (`type` text, html or xhtml; `content` may also carry a MIME type).
    static func text(fromTextConstruct element: XMLElement) -> FeedText? {
        let type = element.attribute("type")?.lowercased() ?? "text"
        let value: FeedText
        switch type {
        case "html", "text/html":
            value = .html(element.text)
        case "xhtml", "application/xhtml+xml":
            let container = element.child("div", in: XMLNamespace.xhtml) ?? element
            value = .html(container.innerMarkup)
        case "text", "text/plain":
            value = .text(element.text)
        default:
            // Another media type (RFC 4287 4.1.3.3): text is shown, anything else is not.
            guard type.hasPrefix("text/") else { return nil }
            value = .text(element.text)
        }
        return WhiteSpace.trimmed(value.original).isEmpty ? nil : value
    }

    /// A title: markup rendered to one line of text.
    static func line(fromTextConstruct element: XMLElement) -> String? {
        guard let text = text(fromTextConstruct: element) else { return nil }
        switch text {
        case .html(let html): return FeedReading.line(HTMLText.render(html).body)
        case .text(let plain), .markdown(let plain): return FeedReading.line(plain)
        }
    }
}
