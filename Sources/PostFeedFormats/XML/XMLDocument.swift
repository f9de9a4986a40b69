internal import CLibXML2
import Foundation

/// libxml2 is set up once per process (its docs ask for `xmlInitParser` before threads
/// parse concurrently); Swift runs a global's initializer exactly once.
let libxml2Initialized: Void = xmlInitParser()

/// A parsed XML document: owns libxml2's tree and frees it in `deinit`.
///
/// Parsed with no network (`XML_PARSE_NONET`), no entity substitution, no DTD loading and
/// libxml2's default limits (no `XML_PARSE_HUGE`: 256 levels of nesting, 10 MB per text
/// node). Any entity declaration stops the parser: feeds need none, and they are what
/// billion-laughs and external-entity documents are made of.
final class XMLDocument {
    private let document: xmlDocPtr

    private init(document: xmlDocPtr) {
        self.document = document
    }

    deinit {
        xmlFreeDoc(document)
    }

    /// Why a body is not a usable XML document.
    enum Failure: Error {
        /// An entity declaration (general, parameter or unparsed) stopped the parser.
        case entityDeclaration
        /// Nesting past libxml2's limit.
        case tooDeep(line: Int)
        /// Not XML at all, or broken before its root element.
        case malformed(message: String, line: Int)
    }

    /// Parses `bytes` (any encoding libxml2 reads: a BOM or the XML declaration says
    /// which, UTF-8 otherwise). Errors after the root element has started are recovered
    /// from, as feed readers do for real-world feeds (an undeclared `&nbsp;`, a stray `&`).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> XMLDocument {
        _ = libxml2Initialized
        let handlers = pf_xml_silence_errors()
        defer { pf_xml_restore_errors(handlers) }
        guard bytes.count <= Int(Int32.max) else {
            throw .malformed(message: "the document is larger than 2 GiB", line: 0)
        }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count > 0 else {
            throw .malformed(message: "an empty document", line: 0)
        }
        // The push parser, not xmlReadMemory: libxml2 2.9's pull parser reads a CDATA
        // section a character at a time (xmlParseCDSect), its push parser looks for `]]>`
        // and checks the bytes in bulk, and WordPress feeds are CDATA from end to end
        // (a 5 MB WordPress feed: 53 → 42 ms in process; BENCHMARKS.md). The first four bytes go in with the
        // context, for the encoding to be detected from them.
        let head = min(4, bytes.count)
        guard let context = xmlCreatePushParserCtxt(nil, nil, base, Int32(head), nil) else {
            throw .malformed(message: "libxml2 could not allocate a parser", line: 0)
        }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        _ = xmlCtxtUseOptions(context, options)
        pf_xml_harden_context(context)
        _ = xmlParseChunk(context, base + head, Int32(bytes.count - head), 1)
        let parsed = context.pointee.myDoc
        context.pointee.myDoc = nil
        if pf_xml_refused_entity(context) != 0 {
            if let parsed { xmlFreeDoc(parsed) }
            throw .entityDeclaration
        }
        let error = xmlCtxtGetLastError(context)
        let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } }?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let line = error.map { Int($0.pointee.line) } ?? 0
        if let message, message.contains("Excessive depth") {
            if let parsed { xmlFreeDoc(parsed) }
            throw .tooDeep(line: line)
        }
        guard let parsed else {
            throw .malformed(message: message ?? "not an XML document", line: line)
        }
        guard xmlDocGetRootElement(parsed) != nil else {
            xmlFreeDoc(parsed)
            throw .malformed(message: message ?? "no root element", line: line)
        }
        return XMLDocument(document: parsed)
    }

    /// Runs `body` with the root element; the tree lives until `body` returns.
    func withRootElement<Result, Failure: Error>(_ body: (XMLElement) throws(Failure) -> Result) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        // Checked non-nil in `parse`.
        return try body(XMLElement(xmlDocGetRootElement(document)!))
    }
}
