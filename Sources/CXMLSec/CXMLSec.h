// libxml2 and libxmlsec1 (OpenSSL back end) for Swift: the headers HearthSAML and the sandbox's SAML IdP use,
// and the function-like macros Swift cannot import, as static inline functions.
#ifndef HEARTH_CXMLSEC_H
#define HEARTH_CXMLSEC_H

// What `pkg-config --cflags xmlsec1-openssl` defines. SwiftPM drops every -D of a pkg-config file ("prohibited
// flag(s)"), so they are repeated here, before any xmlsec header. XMLSEC_NO_SIZE_T changes the ABI (xmlSecSize is
// `unsigned int` with it, `size_t` without): it must match the build of the installed library. 1.2.x's .pc files
// (Debian's 1.2.37) define it; 1.3 made xmlSecSize size_t, so it is defined for 1.2 only.
#include <xmlsec/version.h>
#if !defined(XMLSEC_NO_SIZE_T) && XMLSEC_VERSION_MAJOR == 1 && XMLSEC_VERSION_MINOR < 3
#define XMLSEC_NO_SIZE_T 1
#endif
#ifndef XMLSEC_CRYPTO_OPENSSL
#define XMLSEC_CRYPTO_OPENSSL 1
#endif
#ifndef XMLSEC_NO_CRYPTO_DYNAMIC_LOADING
#define XMLSEC_NO_CRYPTO_DYNAMIC_LOADING 1
#endif
#ifndef XMLSEC_NO_GOST
#define XMLSEC_NO_GOST 1
#endif
#ifndef XMLSEC_NO_GOST2012
#define XMLSEC_NO_GOST2012 1
#endif

// Debian's libxml2 is built with ICU, so its encoding.h includes <unicode/ucnv.h>, whose types clash in Swift with
// the ICU that Foundation carries (`'UErrorCode' has different definitions in different modules`). libxml2's headers
// use only UConverter pointers and UChar (UTF-16 units) in a struct HearthSAML never touches: both are declared here
// and ICU's header skipped (its own include guard).
#ifndef UCNV_H
#define UCNV_H
#include <stdint.h>
typedef struct UConverter UConverter;
typedef uint16_t UChar;
#endif

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/errors.h>
#include <xmlsec/io.h>
#include <xmlsec/keys.h>
#include <xmlsec/keysmngr.h>
#include <xmlsec/keyinfo.h>
#include <xmlsec/transforms.h>
#include <xmlsec/xmltree.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmlenc.h>
#include <xmlsec/templates.h>
#include <xmlsec/openssl/app.h>
#include <xmlsec/openssl/crypto.h>
#include <xmlsec/openssl/x509.h>
#include <openssl/sha.h>

// libxml2's deallocator is a global function pointer (a macro in some builds).
static inline void cxmlsec_free(void *memory) { xmlFree(memory); }

// The references a verified signature's SignedInfo held (xmlSecDSigReferenceCtxPtr items).
static inline xmlSecPtrListPtr cxmlsec_signed_info_references(xmlSecDSigCtxPtr context) { return &context->signedInfoReferences; }

// The list of key data a KeyInfo may hold for a key-info reading context (empty: all).
static inline xmlSecPtrListPtr cxmlsec_enabled_key_data(xmlSecKeyInfoCtxPtr context) { return &context->enabledKeyData; }

// Transforms: canonicalisation, enveloped signature, digests, signatures, encryption.
static inline xmlSecTransformId cxmlsec_transform_exc_c14n(void) { return xmlSecTransformExclC14NId; }
static inline xmlSecTransformId cxmlsec_transform_exc_c14n_with_comments(void) { return xmlSecTransformExclC14NWithCommentsId; }
static inline xmlSecTransformId cxmlsec_transform_inclusive_c14n(void) { return xmlSecTransformInclC14NId; }
static inline xmlSecTransformId cxmlsec_transform_enveloped(void) { return xmlSecTransformEnvelopedId; }
static inline xmlSecTransformId cxmlsec_transform_sha256(void) { return xmlSecOpenSSLTransformSha256Id; }
static inline xmlSecTransformId cxmlsec_transform_rsa_sha256(void) { return xmlSecOpenSSLTransformRsaSha256Id; }
static inline xmlSecTransformId cxmlsec_transform_aes128_cbc(void) { return xmlSecOpenSSLTransformAes128CbcId; }
static inline xmlSecTransformId cxmlsec_transform_aes256_cbc(void) { return xmlSecOpenSSLTransformAes256CbcId; }
static inline xmlSecTransformId cxmlsec_transform_aes128_gcm(void) { return xmlSecOpenSSLTransformAes128GcmId; }
static inline xmlSecTransformId cxmlsec_transform_aes256_gcm(void) { return xmlSecOpenSSLTransformAes256GcmId; }
static inline xmlSecTransformId cxmlsec_transform_rsa_oaep(void) { return xmlSecOpenSSLTransformRsaOaepId; }

// The size type of xmlsec's API (a macro).
typedef xmlSecSize cxmlsec_size;

// Keys: whether a key is RSA, and whether it holds the private half.
static inline int cxmlsec_key_is_rsa(xmlSecKeyPtr key) {
    return key != NULL && xmlSecKeyDataCheckId(xmlSecKeyGetValue(key), xmlSecOpenSSLKeyDataRsaId);
}
static inline int cxmlsec_key_is_private(xmlSecKeyPtr key) {
    return key != NULL && (xmlSecKeyGetType(key) & xmlSecKeyDataTypePrivate) != 0;
}

// Key data: what a key holds.
static inline xmlSecKeyDataId cxmlsec_key_data_rsa(void) { return xmlSecOpenSSLKeyDataRsaId; }
static inline xmlSecKeyDataId cxmlsec_key_data_x509(void) { return xmlSecOpenSSLKeyDataX509Id; }
static inline xmlSecKeyDataId cxmlsec_key_data_name(void) { return xmlSecKeyDataNameId; }
static inline xmlSecKeyDataId cxmlsec_key_data_encrypted_key(void) { return xmlSecKeyDataEncryptedKeyId; }
static inline xmlSecKeyDataId cxmlsec_key_data_retrieval_method(void) { return xmlSecKeyDataRetrievalMethodId; }
static inline xmlSecKeyDataId cxmlsec_key_data_aes(void) { return xmlSecOpenSSLKeyDataAesId; }

#endif
