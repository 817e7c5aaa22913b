#include <stddef.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

// HMAC-SHA1 of `data` under `key` into `digest` (20 bytes): how Storyblok signs webhooks.
// Returns 1 on success, 0 on failure.
static inline int storysite_hmac_sha1(const void *key, int key_length, const unsigned char *data, size_t length,
                                      unsigned char digest[20])
{
    unsigned int digest_length = 0;
    return HMAC(EVP_sha1(), key, key_length, data, length, digest, &digest_length) != NULL && digest_length == 20;
}
