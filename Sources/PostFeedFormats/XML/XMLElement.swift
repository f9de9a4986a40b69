internal import CLibXML2

/// Well-known namespaces of feed documents.
enum XMLNamespace {
    static let atom = "http://www.w3.org/2005/Atom"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let media = "http://search.yahoo.com/mrss/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let rss1 = "http://purl.org/rss/1.0/"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let xhtml = "http://www.w3.org/1999/xhtml"

    /// The namespace a prefix conventionally names, for feeds that use `media:content` or
    /// `dc:creator` without declaring the prefix (libxml2 then keeps `media:content` as the
    /// element's whole name).
    static func conventional(prefix: Substring) -> String? {
        switch prefix {
        case "atom": atom
        case "content": content
        case "dc": dublinCore
        case "media": media
        case "rdf": rdf
        default: nil
        }
    }
}

/// An element of an ``XMLDocument``'s tree, valid while the document's
/// `withRootElement` body runs.
struct XMLElement {
    let node: xmlNodePtr

    init(_ node: xmlNodePtr) {
        self.node = node
    }

    /// The local name (`creator` for `dc:creator`).
    var localName: String {
        let name = String(cString: node.pointee.name)
        if node.pointee.ns == nil, let colon = name.lastIndex(of: ":") {
            return String(name[name.index(after: colon)...])
        }
        return name
    }

    /// The namespace URI, or `nil` for none. An undeclared conventional prefix counts as
    /// its namespace.
    var namespace: String? {
        if let ns = node.pointee.ns {
            return ns.pointee.href.map { String(cString: $0) }
        }
        let name = String(cString: node.pointee.name)
        guard let colon = name.firstIndex(of: ":") else { return nil }
        return XMLNamespace.conventional(prefix: name[..<colon])
    }

    /// Whether this is `name` in `namespace` (`nil`: no namespace, or RSS 1.0's, so RSS
    /// 2.0 and RDF elements match alike).
    func isNamed(_ name: String, in namespace: String? = nil) -> Bool {
        guard localName == name else { return false }
        let actual = self.namespace
        if namespace == nil { return actual == nil || actual == XMLNamespace.rss1 }
        if namespace == XMLNamespace.media { return actual == XMLNamespace.media || actual == "http://search.yahoo.com/mrss" }
        return actual == namespace
    }

    /// The child elements, in document order.
    var children: [XMLElement] {
        var result: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(XMLElement(current)) }
            child = current.pointee.next
        }
        return result
    }

    /// The first child element named `name` in `namespace`.
    func child(_ name: String, in namespace: String? = nil) -> XMLElement? {
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE, XMLElement(current).isNamed(name, in: namespace) {
                return XMLElement(current)
            }
            child = current.pointee.next
        }
        return nil
    }

    /// The text of the element's text and CDATA children, concatenated; entity references
    /// left by a recovered parse (`&nbsp;` in a feed without a DTD) become their HTML
    /// character when HTML has one. Nested elements' text is not included.
    var text: String {
        var result = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result += String(cString: content) }
            case XML_ENTITY_REF_NODE:
                if let name = current.pointee.name, let entity = htmlEntityLookup(name),
                   let scalar = Unicode.Scalar(entity.pointee.value) {
                    result.unicodeScalars.append(scalar)
                }
            default:
                break
            }
            child = current.pointee.next
        }
        return result
    }

    /// The content as markup: ``text`` normally (escaped or CDATA HTML), but the children
    /// serialized when the feed put raw elements inside (`<description><p>…</p></description>`,
    /// which real feeds do).
    var markup: String {
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { return innerMarkup }
            child = current.pointee.next
        }
        return text
    }

    /// `text` with surrounding whitespace removed, or `nil` when that leaves nothing.
    var trimmedText: String? {
        let value = WhiteSpace.trimmed(text)
        return value.isEmpty ? nil : value
    }

    /// The value of the attribute `name` (no namespace, or `namespace`).
    func attribute(_ name: String, in namespace: String? = nil) -> String? {
        var property = node.pointee.properties
        while let current = property {
            defer { property = current.pointee.next }
            guard String(cString: current.pointee.name) == name else { continue }
            let actual = current.pointee.ns.flatMap { $0.pointee.href.map { String(cString: $0) } }
            guard actual == namespace else { continue }
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

    /// The element's content as markup (for Atom's `type="xhtml"`): its children
    /// serialized, without the element itself.
    var innerMarkup: String {
        let handlers = pf_xml_silence_errors()
        defer { pf_xml_restore_errors(handlers) }
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        var child = node.pointee.children
        while let current = child {
            xmlNodeDump(buffer, node.pointee.doc, current, 0, 0)
            child = current.pointee.next
        }
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }
}

import Foundation
