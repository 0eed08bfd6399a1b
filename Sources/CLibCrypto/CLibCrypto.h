// The system's OpenSSL libcrypto (Debian's libssl-dev), for the RS256 signer in CRS256. swift-crypto's BoringSSL is
// a separate, prefixed copy; this one is the library `openssl speed` measures, with the CPU's fastest RSA code.
#ifndef HEARTH_CLIBCRYPTO_H
#define HEARTH_CLIBCRYPTO_H

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/opensslv.h>

#endif
