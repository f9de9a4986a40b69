// libxml2 for PostFeedFormats: the XML feed parser and the HTML parser, hardened.
// `xmlFree` is a function pointer variable (a macro in some builds) and the SAX handler's
// fields are set from C, so both live here as `static inline` functions, as CCurl's
// shim does for libcurl's variadic calls.
#ifndef POSTFEED_CLIBXML2_SHIM_H
#define POSTFEED_CLIBXML2_SHIM_H

// Debian builds libxml2 with ICU, and <libxml/encoding.h> then includes the system's ICU
// headers, whose `UErrorCode` clashes with the copy Foundation carries (_FoundationICU).
// Nothing here touches the ICU members of `xmlCharEncodingHandler`: leave them out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// MARK: memory
static inline void pf_xml_free(void *pointer) {
    xmlFree(pointer);
}

// MARK: refusing entities
// A feed has no use for entity declarations; they are what billion-laughs documents and
// external-entity reads (`<!ENTITY x SYSTEM "file:///etc/passwd">`) are made of. The first
// declaration, general or parameter, internal or external, stops the parser before the
// entity can be referenced, and marks the context so the caller can say why.
// The mark is a constant, not an address: each Swift file may emit its own copy of these.
#define PF_XML_REFUSED_ENTITY_MARK ((void *)1)

static inline void pf_xml_refuse_entity_decl(void *context, const xmlChar *name, int type,
                                             const xmlChar *publicId, const xmlChar *systemId,
                                             xmlChar *content) {
    (void)name; (void)type; (void)publicId; (void)systemId; (void)content;
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)context;
    parser->_private = PF_XML_REFUSED_ENTITY_MARK;
    xmlStopParser(parser);
}

static inline void pf_xml_refuse_unparsed_entity_decl(void *context, const xmlChar *name,
                                                      const xmlChar *publicId, const xmlChar *systemId,
                                                      const xmlChar *notationName) {
    (void)name; (void)publicId; (void)systemId; (void)notationName;
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)context;
    parser->_private = PF_XML_REFUSED_ENTITY_MARK;
    xmlStopParser(parser);
}

// Nothing outside the document is ever read: no external subset, no external entity.
static inline xmlParserInputPtr pf_xml_refuse_resolve_entity(void *context, const xmlChar *publicId,
                                                             const xmlChar *systemId) {
    (void)context; (void)publicId; (void)systemId;
    return NULL;
}

static inline void pf_xml_ignore_external_subset(void *context, const xmlChar *name,
                                                 const xmlChar *externalId, const xmlChar *systemId) {
    (void)context; (void)name; (void)externalId; (void)systemId;
}

/// Installs the refusals above on a parser context made by `xmlNewParserCtxt`.
static inline void pf_xml_harden_context(xmlParserCtxtPtr parser) {
    parser->sax->entityDecl = pf_xml_refuse_entity_decl;
    parser->sax->unparsedEntityDecl = pf_xml_refuse_unparsed_entity_decl;
    parser->sax->resolveEntity = pf_xml_refuse_resolve_entity;
    parser->sax->externalSubset = pf_xml_ignore_external_subset;
    parser->_private = NULL;
}

/// Whether the parse stopped at an entity declaration.
static inline int pf_xml_refused_entity(xmlParserCtxtPtr parser) {
    return parser->_private == PF_XML_REFUSED_ENTITY_MARK;
}

// MARK: quiet
// libxml2 reports some errors through its thread-local generic handler whatever the
// parser options say (encoding conversion failures while parsing, serialization errors
// in `xmlNodeDump`), which writes to stderr: a library must not. The parser context still
// records them (`xmlCtxtGetLastError`). The handlers are per thread, so this changes
// nothing for other threads; the caller restores them when done.
typedef struct {
    xmlGenericErrorFunc generic;
    void *genericContext;
    xmlStructuredErrorFunc structured;
    void *structuredContext;
} pf_xml_error_handlers;

static inline void pf_xml_ignore_generic_error(void *context, const char *message, ...) {
    (void)context; (void)message;
}

static inline void pf_xml_ignore_structured_error(void *context, xmlErrorPtr error) {
    (void)context; (void)error;
}

static inline pf_xml_error_handlers pf_xml_silence_errors(void) {
    pf_xml_error_handlers saved = { xmlGenericError, xmlGenericErrorContext, xmlStructuredError, xmlStructuredErrorContext };
    xmlSetGenericErrorFunc(NULL, pf_xml_ignore_generic_error);
    xmlSetStructuredErrorFunc(NULL, pf_xml_ignore_structured_error);
    return saved;
}

static inline void pf_xml_restore_errors(pf_xml_error_handlers saved) {
    xmlSetGenericErrorFunc(saved.genericContext, saved.generic);
    xmlSetStructuredErrorFunc(saved.structuredContext, saved.structured);
}

#endif
