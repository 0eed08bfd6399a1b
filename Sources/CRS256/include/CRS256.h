// RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signatures by the system's libcrypto: a private key read once from PEM,
// then signatures from any number of threads at once.
#ifndef HEARTH_CRS256_H
#define HEARTH_CRS256_H

#include <stddef.h>
#include <stdint.h>

/// A private key with a signing context prepared for it; each signature starts from a copy of that context, so
/// nothing is looked up per signature and threads never share a context.
typedef struct hearth_rs256_key hearth_rs256_key;

/// Reads an RSA private key from `length` bytes of PEM (PKCS#1 or PKCS#8). NULL if it is not one.
hearth_rs256_key *hearth_rs256_key_new(const char *pem, size_t length);

void hearth_rs256_key_free(hearth_rs256_key *key);

/// The signature's length in bytes (the modulus's), the capacity `hearth_rs256_sign` needs.
size_t hearth_rs256_signature_length(const hearth_rs256_key *key);

/// Signs `length` bytes of `message` into `signature` (`capacity` bytes). Returns the signature's length, or 0 when
/// libcrypto failed (its error queue is cleared).
size_t hearth_rs256_sign(const hearth_rs256_key *key, const uint8_t *message, size_t length, uint8_t *signature, size_t capacity);

/// The version of the libcrypto in use, as OpenSSL_version(OPENSSL_VERSION) names it.
const char *hearth_rs256_library_version(void);

#endif
