#include "CXMLSec.h"
#include "CXMLSecSupport.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

static pthread_once_t initialisation = PTHREAD_ONCE_INIT;
static int initialised = -1;
static _Thread_local char last_error[512];

// xmlsec's errors go here instead of stderr: the last one of each thread is kept for the caller's log.
static void keep_error(const char *file, int line, const char *func, const char *errorObject, const char *errorSubject, int reason,
                       const char *msg) {
    (void)file;
    (void)line;
    // The first error of a failure is its cause; the ones after it are the callers giving up.
    if (last_error[0] != 0) return;
    snprintf(last_error, sizeof(last_error), "%s%s%s: %s (reason %d)", func ? func : "", errorSubject ? " " : "",
             errorSubject ? errorSubject : "", msg ? msg : "", reason);
    (void)errorObject;
}

static void initialise(void) {
    xmlInitParser();
    if (xmlSecInit() < 0) return;
    if (xmlSecCheckVersion() != 1) return;
    if (xmlSecOpenSSLAppInit(NULL) < 0) return;
    if (xmlSecOpenSSLInit() < 0) return;
    xmlSecErrorsSetCallback(keep_error);
    // No URI a document names is ever opened: same-document references need no I/O.
    xmlSecIOCleanupCallbacks();
    initialised = 0;
}

int hearth_xmlsec_initialise(void) {
    pthread_once(&initialisation, initialise);
    return initialised;
}

const char *hearth_xmlsec_last_error(void) { return last_error; }

void hearth_xmlsec_clear_error(void) { last_error[0] = 0; }

// The parse's flags, reached through the parser context's _private.
struct parse_state {
    int doctype;
};

static void refuse_subset(void *context, const xmlChar *name, const xmlChar *externalID, const xmlChar *systemID) {
    (void)name;
    (void)externalID;
    (void)systemID;
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)context;
    struct parse_state *state = (struct parse_state *)parser->_private;
    state->doctype = 1;
    xmlStopParser(parser);
}

static void refuse_entity(void *context, const xmlChar *name, int type, const xmlChar *publicId, const xmlChar *systemId,
                          xmlChar *content) {
    (void)name;
    (void)type;
    (void)publicId;
    (void)systemId;
    (void)content;
    refuse_subset(context, NULL, NULL, NULL);
}

void *hearth_xml_parse(const char *buffer, int size, int *refusal) {
    *refusal = HEARTH_XML_NOT_WELL_FORMED;
    if (buffer == NULL || size <= 0) return NULL;
    xmlParserCtxtPtr parser = xmlCreateMemoryParserCtxt(buffer, size);
    if (parser == NULL) return NULL;
    struct parse_state state = {0};
    parser->_private = &state;
    // The context owns a copy of the SAX handler: replacing these three touches no other parse.
    parser->sax->internalSubset = refuse_subset;
    parser->sax->externalSubset = refuse_subset;
    parser->sax->entityDecl = refuse_entity;
    xmlCtxtUseOptions(parser, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlParseDocument(parser);
    xmlDocPtr document = parser->myDoc;
    int wellFormed = parser->wellFormed;
    parser->myDoc = NULL;
    xmlFreeParserCtxt(parser);
    int doctype = state.doctype || (document != NULL && (document->intSubset != NULL || document->extSubset != NULL));
    if (doctype || !wellFormed || document == NULL) {
        if (document != NULL) xmlFreeDoc(document);
        *refusal = doctype ? HEARTH_XML_DOCTYPE : HEARTH_XML_NOT_WELL_FORMED;
        return NULL;
    }
    *refusal = HEARTH_XML_PARSED;
    return document;
}

long hearth_raw_deflate(const unsigned char *input, size_t length, unsigned char *output, size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int result = deflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    deflateEnd(&stream);
    return result == Z_STREAM_END ? written : -1;
}

long hearth_raw_inflate(const unsigned char *input, size_t length, unsigned char *output, size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (inflateInit2(&stream, -15) != Z_OK) return -1;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int result = inflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    inflateEnd(&stream);
    return result == Z_STREAM_END ? written : -1;
}
