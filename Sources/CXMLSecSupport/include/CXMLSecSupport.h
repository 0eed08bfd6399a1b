// What HearthSAML and the sandbox's SAML IdP need of C beyond libxmlsec1's own API: one process-wide
// initialisation, a parser that refuses a DOCTYPE before reading it, xmlsec's last error, raw DEFLATE (zlib).
#ifndef HEARTH_CXMLSEC_SUPPORT_H
#define HEARTH_CXMLSEC_SUPPORT_H

#include <stddef.h>

/// Initialises libxml2, libxmlsec1 and its OpenSSL back end once per process, whichever module asks first
/// (pthread_once); later calls return the first call's result. 0 when ready, -1 when a step failed.
/// Also removes xmlsec's I/O callbacks (http, ftp, files): nothing a document names is ever fetched.
int hearth_xmlsec_initialise(void);

/// The last error libxmlsec1 reported on this thread ("" when none), for logs. Cleared by
/// hearth_xmlsec_clear_error.
const char *hearth_xmlsec_last_error(void);
void hearth_xmlsec_clear_error(void);

/// Why hearth_xml_parse returned no document.
enum {
    HEARTH_XML_PARSED = 0,
    HEARTH_XML_NOT_WELL_FORMED = 1,
    HEARTH_XML_DOCTYPE = 2,
};

/// Parses `size` bytes of XML without the network, DTD loading or entity substitution, and refuses a document
/// with a DOCTYPE as soon as the parser meets it (before its internal subset, so no entity is ever declared).
/// Returns an xmlDocPtr (as void *, free with xmlFreeDoc) or NULL with `*refusal` set.
void *hearth_xml_parse(const char *buffer, int size, int *refusal);

/// Raw DEFLATE (RFC 1951, no zlib header), as SAML's HTTP-Redirect binding wants. Writes at most `capacity`
/// bytes to `output`; returns the length, or -1 when it did not fit or zlib failed.
long hearth_raw_deflate(const unsigned char *input, size_t length, unsigned char *output, size_t capacity);

/// Raw INFLATE; -1 when the input is not raw DEFLATE or inflates to more than `capacity` bytes.
long hearth_raw_inflate(const unsigned char *input, size_t length, unsigned char *output, size_t capacity);

#endif
