#include "CRS256.h"
#include "CLibCrypto.h"

#include <openssl/err.h>
#include <openssl/rsa.h>
#include <stdlib.h>

struct hearth_rs256_key {
    EVP_PKEY *key;
    /// Initialised for SHA-256 and PKCS#1 v1.5 padding once; copied for each signature. Never used directly.
    EVP_MD_CTX *prototype;
};

hearth_rs256_key *hearth_rs256_key_new(const char *pem, size_t length) {
    if (length > INT32_MAX) return NULL;
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) return NULL;
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (key == NULL || EVP_PKEY_base_id(key) != EVP_PKEY_RSA) {
        EVP_PKEY_free(key);
        ERR_clear_error();
        return NULL;
    }
    EVP_MD_CTX *prototype = EVP_MD_CTX_new();
    EVP_PKEY_CTX *context = NULL;
    if (prototype == NULL || EVP_DigestSignInit(prototype, &context, EVP_sha256(), NULL, key) != 1 ||
        EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) != 1) {
        EVP_MD_CTX_free(prototype);
        EVP_PKEY_free(key);
        ERR_clear_error();
        return NULL;
    }
    hearth_rs256_key *result = malloc(sizeof(hearth_rs256_key));
    if (result == NULL) {
        EVP_MD_CTX_free(prototype);
        EVP_PKEY_free(key);
        return NULL;
    }
    result->key = key;
    result->prototype = prototype;
    return result;
}

void hearth_rs256_key_free(hearth_rs256_key *key) {
    if (key == NULL) return;
    EVP_MD_CTX_free(key->prototype);
    EVP_PKEY_free(key->key);
    free(key);
}

size_t hearth_rs256_signature_length(const hearth_rs256_key *key) {
    int size = EVP_PKEY_get_size(key->key);
    return size > 0 ? (size_t)size : 0;
}

size_t hearth_rs256_sign(const hearth_rs256_key *key, const uint8_t *message, size_t length, uint8_t *signature, size_t capacity) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t written = capacity;
    if (context == NULL || EVP_MD_CTX_copy_ex(context, key->prototype) != 1 ||
        EVP_DigestSign(context, signature, &written, message, length) != 1) {
        written = 0;
        ERR_clear_error();
    }
    EVP_MD_CTX_free(context);
    return written;
}

const char *hearth_rs256_library_version(void) { return OpenSSL_version(OPENSSL_VERSION); }
