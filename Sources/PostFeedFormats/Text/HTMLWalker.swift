internal import CLibXML2
import Foundation

/// Walks an HTML tree in document order without recursion (a hostile document may nest
/// elements as deep as it likes), driving a ``TextLayout``.
struct HTMLWalker {
    private let baseURL: URL?
    private var layout = TextLayout()
    private var links: [String] = []
    private var linkNumbers: [String: Int] = [:]
    private var images: [String] = []
    /// Open lists: ordered or not, and the next item's number.
    private var lists: [(ordered: Bool, next: Int)] = []
    /// Open anchors: the link's target and where its text began.
    private var anchors: [(target: String?, mark: (lines: Int, length: Int))] = []
    private var preDepth = 0
    /// Open `<li>` elements that pushed a prefix (one outside any list pushes nothing).
    private var itemPrefixes: [Bool] = []

    init(baseURL: URL?) {
        self.baseURL = baseURL
    }

    mutating func walk(_ root: xmlNodePtr) {
        var node: xmlNodePtr? = root.pointee.children
        while let current = node {
            if enter(current), let child = current.pointee.children {
                node = child
                continue
            }
            // Leave this node, then climb until a sibling is found.
            var leaving: xmlNodePtr? = current
            node = nil
            while let done = leaving, done != root {
                leave(done)
                if let next = done.pointee.next {
                    node = next
                    break
                }
                leaving = done.pointee.parent
            }
        }
    }

    mutating func finish() -> RenderedText {
        let body = TerminalText.laidOut(layout.finish())
        return RenderedText(body: body, links: links.map(TerminalText.line), images: images.map(TerminalText.line))
    }

    // MARK: Elements

    private static let dropped: Set<String> = [
        "script", "style", "head", "title", "noscript", "template", "svg", "math", "select", "object", "embed",
        "canvas", "map", "applet", "frameset", "dialog",
    ]
    private static let blocks: Set<String> = [
        "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "figure", "address", "dl",
        "details", "summary", "center", "fieldset", "form", "table", "caption", "body", "html", "hgroup", "legend",
    ]
    private static let lineBlocks: Set<String> = ["tr", "dt", "figcaption", "option", "thead", "tbody", "tfoot"]

    /// Handles an opening; `true` when the children are to be walked.
    private mutating func enter(_ node: xmlNodePtr) -> Bool {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            if let content = node.pointee.content { layout.text(String(cString: content)) }
            return false
        case XML_ELEMENT_NODE:
            break
        default:
            return false  // comments, processing instructions, DTD nodes
        }
        let name = String(cString: node.pointee.name).lowercased()
        if Self.dropped.contains(name) { return false }
        switch name {
        case _ where Self.blocks.contains(name): layout.block(.blank)
        case _ where Self.lineBlocks.contains(name): layout.block(.line)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            layout.block(.blank)
            layout.beginUppercase()
        case "br": layout.lineBreak()
        case "hr": layout.rule()
        case "pre", "xmp", "listing", "plaintext":
            layout.beginVerbatim()
            preDepth += 1
        case "ul", "ol", "menu", "dir":
            layout.block(itemPrefixes.isEmpty ? .blank : .line)
            let start = name == "ol" ? attribute(node, "start").flatMap { Int(WhiteSpace.trimmed($0)) } ?? 1 : 1
            lists.append((ordered: name == "ol", next: start))
        case "li":
            guard let list = lists.last else {
                layout.block(.line)
                itemPrefixes.append(false)
                return true
            }
            let marker: String
            if list.ordered {
                let number = attribute(node, "value").flatMap { Int(WhiteSpace.trimmed($0)) } ?? list.next
                marker = "\(number). "
                lists[lists.count - 1].next = number &+ 1
            } else {
                let bullets = ["• ", "◦ ", "▪ "]
                marker = bullets[(lists.count - 1) % bullets.count]
            }
            let indent = lists.count > 1 && itemPrefixes.last != true ? "  " : ""
            layout.pushPrefix(first: indent + marker, rest: String(repeating: " ", count: indent.count + marker.count), separation: .line)
            itemPrefixes.append(true)
        case "dd":
            layout.pushPrefix(first: "    ", rest: "    ", separation: .line)
        case "blockquote":
            layout.pushPrefix(first: "> ", rest: "> ", separation: .blank)
        case "td", "th":
            if !layout.paragraphIsEmpty {
                layout.word("|")
                layout.text(" ")
            }
        case "a":
            let target = attribute(node, "href").flatMap(linkTarget)
            anchors.append((target: target, mark: layout.paragraphMark))
        case "img":
            let alt = attribute(node, "alt").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") } ?? ""
            layout.word(alt.isEmpty ? "[image]" : "[image: \(alt)]")
            if let source = attribute(node, "src").flatMap(resolved) { images.append(source) }
            return false
        case "iframe", "video", "audio":
            let label = name == "iframe" ? "[embed]" : "[\(name)]"
            let source = attribute(node, "src") ?? firstSource(of: node)
            layout.word(label)
            if let target = source.flatMap(linkTarget) { layout.word("[\(number(for: target))]") }
            return false
        default:
            break
        }
        return true
    }

    /// Handles a closing (also of an element without children).
    private mutating func leave(_ node: xmlNodePtr) {
        guard node.pointee.type == XML_ELEMENT_NODE else { return }
        let name = String(cString: node.pointee.name).lowercased()
        if Self.dropped.contains(name) { return }
        switch name {
        case _ where Self.blocks.contains(name): layout.block(.blank)
        case _ where Self.lineBlocks.contains(name): layout.block(.line)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            layout.endUppercase()
            layout.block(.blank)
        case "pre", "xmp", "listing", "plaintext":
            preDepth = max(0, preDepth - 1)
            layout.endVerbatim()
        case "ul", "ol", "menu", "dir":
            if !lists.isEmpty { lists.removeLast() }
            layout.block(itemPrefixes.isEmpty ? .blank : .line)
        case "li":
            if itemPrefixes.popLast() == true {
                layout.popPrefix(separation: .line)
            } else {
                layout.block(.line)
            }
        case "dd":
            layout.popPrefix(separation: .line)
        case "blockquote":
            layout.popPrefix(separation: .blank)
        case "a":
            guard let anchor = anchors.popLast(), let target = anchor.target else { return }
            // A bare URL shown as its own text needs no reference.
            let shown = layout.text(since: anchor.mark)
            if let shown, Self.sameLink(shown, target) { return }
            layout.word("[\(number(for: target))]")
        default:
            break
        }
    }

    // MARK: Links

    private mutating func number(for target: String) -> Int {
        if let number = linkNumbers[target] { return number }
        links.append(target)
        linkNumbers[target] = links.count
        return links.count
    }

    /// The target a reference lists: resolved against the base URL; `nil` for none worth
    /// listing (empty, a fragment of this page, `javascript:`).
    private func linkTarget(_ href: String) -> String? {
        let trimmed = WhiteSpace.trimmed(href)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.lowercased().hasPrefix("javascript:") else { return nil }
        return resolved(trimmed)
    }

    private func resolved(_ reference: String) -> String? {
        let trimmed = WhiteSpace.trimmed(reference)
        guard !trimmed.isEmpty else { return nil }
        if let url = URL(string: trimmed, relativeTo: baseURL)?.absoluteURL, url.scheme != nil {
            return url.absoluteString
        }
        return trimmed
    }

    private static func sameLink(_ shown: String, _ target: String) -> Bool {
        func stripped(_ text: String) -> Substring {
            var text = Substring(text)
            for scheme in ["https://", "http://", "mailto:"] where text.lowercased().hasPrefix(scheme) {
                text = text.dropFirst(scheme.count)
            }
            while text.hasSuffix("/") { text = text.dropLast() }
            return text
        }
        return !shown.isEmpty && stripped(shown) == stripped(target)
    }

    // MARK: Attributes

    private func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        var property = node.pointee.properties
        while let current = property {
            defer { property = current.pointee.next }
            guard String(cString: current.pointee.name).lowercased() == name else { continue }
            var value = ""
            var child = current.pointee.children
            while let text = child {
                if let content = text.pointee.content { value += String(cString: content) }
                child = text.pointee.next
            }
            return value
        }
        return nil
    }

    private func firstSource(of node: xmlNodePtr) -> String? {
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE, String(cString: current.pointee.name).lowercased() == "source",
               let source = attribute(current, "src") {
                return source
            }
            child = current.pointee.next
        }
        return nil
    }
}
