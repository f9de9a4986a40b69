import Foundation

/// RSS 2.0 (and 0.9x, and 1.0's RDF form, whose items sit beside the channel).
struct RSSReader {
    let baseURL: URL?

    func read(root: XMLElement) -> FeedDocument {
        let channel = root.child("channel") ?? root
        let channelBase = FeedReading.rebase(baseURL, by: channel.attribute("base", in: XMLNamespace.xml))
        var document = FeedDocument(format: .rss)
        var itemElements: [XMLElement] = []
        for element in channel.children {
            switch (element.namespace, element.localName) {
            case (nil, "title"), (XMLNamespace.rss1?, "title"):
                document.title = FeedReading.line(element.text)
            case (nil, "link"), (XMLNamespace.rss1?, "link"):
                document.homeURL = FeedReading.webURL(element.text, base: channelBase)
            case (XMLNamespace.atom?, "link"):
                if element.attribute("rel") == "next" {
                    document.nextPageURL = FeedReading.webURL(element.attribute("href"), base: channelBase)
                }
            case (nil, "generator"):
                document.generator = FeedReading.line(element.text)
            case (nil, "item"), (XMLNamespace.rss1?, "item"):
                itemElements.append(element)
            default:
                break
            }
        }
        if root.localName == "RDF" {
            itemElements += root.children.filter { $0.isNamed("item") }
        }
        document.items = itemElements.map { item(from: $0, base: channelBase) }
        return document
    }

    private func item(from element: XMLElement, base channelBase: URL?) -> FeedItem {
        let base = FeedReading.rebase(channelBase, by: element.attribute("base", in: XMLNamespace.xml))
        var guid: String?
        var title: String?
        var link: URL?
        var description: String?
        var encoded: String?
        var author: String?
        var creator: String?
        var published: Date?
        var media = MediaImages()
        for child in element.children {
            switch (child.namespace, child.localName) {
            case (nil, "title"), (XMLNamespace.rss1?, "title"):
                title = FeedReading.line(child.text)
            case (nil, "link"), (XMLNamespace.rss1?, "link"):
                link = link ?? FeedReading.webURL(child.text, base: base)
            case (nil, "guid"):
                guid = FeedReading.identifier(child.text)
            case (nil, "description"), (XMLNamespace.rss1?, "description"):
                description = child.markup
            case (XMLNamespace.content?, "encoded"):
                encoded = child.markup
            case (nil, "author"):
                author = Self.name(fromEmailAddress: child.text)
            case (XMLNamespace.dublinCore?, "creator"):
                creator = creator ?? FeedReading.line(child.text)
            case (nil, "pubDate"):
                published = child.trimmedText.flatMap(FeedDate.parseRFC822) ?? published
            case (XMLNamespace.dublinCore?, "date"):
                published = published ?? child.trimmedText.flatMap(FeedDate.parseRFC3339)
            case (nil, "enclosure"):
                if FeedReading.isImage(type: child.attribute("type")) {
                    media.enclosure = media.enclosure ?? FeedReading.webURL(child.attribute("url"), base: base)
                } else if media.otherEnclosure == nil {
                    media.otherEnclosure = child.attribute("url")
                }
            default:
                media.consider(child, base: base)
            }
        }
        let hasDescription = description.map { !WhiteSpace.trimmed($0).isEmpty } ?? false
        let content = encoded.map(FeedText.html) ?? (hasDescription ? description.map(FeedText.html) : nil)
        let summary = encoded != nil && hasDescription ? description.map(FeedText.html) : nil
        let id = guid ?? element.attribute("about", in: XMLNamespace.rdf).flatMap(FeedReading.identifier)
            ?? link?.absoluteString ?? FeedReading.identifier(media.otherEnclosure)
            ?? FeedReading.contentHash(title, published.map { String($0.timeIntervalSince1970) }, content?.original)
        return FeedItem(
            id: id, title: title, content: content, summary: summary, author: creator ?? author,
            published: published, imageURL: media.best, link: link, contentBaseURL: link ?? base)
    }

    /// `editor@example.com (Jane Doe)` → `Jane Doe`; an address alone stays as it is.
    static func name(fromEmailAddress text: String) -> String? {
        if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            let name = FeedReading.line(String(text[text.index(after: open)..<close]))
            if name != nil { return name }
        }
        return FeedReading.line(text)
    }
}

/// The pictures an item names through Media RSS (`media:content`, `media:thumbnail`,
/// inside `media:group` or not) and enclosures; the best one wins.
struct MediaImages {
    var content: URL?
    var thumbnail: URL?
    var enclosure: URL?
    var otherEnclosure: String?

    var best: URL? { content ?? thumbnail ?? enclosure }

    mutating func consider(_ element: XMLElement, base: URL?) {
        guard element.namespace == XMLNamespace.media || element.namespace == "http://search.yahoo.com/mrss" else { return }
        switch element.localName {
        case "group":
            for child in element.children { consider(child, base: base) }
        case "content":
            guard content == nil, let url = FeedReading.webURL(element.attribute("url"), base: base) else { return }
            let medium = element.attribute("medium")?.lowercased()
            let type = element.attribute("type")
            if medium == "image" || FeedReading.isImage(type: type) || (medium == nil && type == nil && FeedReading.looksLikeImage(url)) {
                content = url
            }
        case "thumbnail":
            if thumbnail == nil { thumbnail = FeedReading.webURL(element.attribute("url"), base: base) }
        default:
            break
        }
    }
}
