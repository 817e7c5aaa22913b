#include <stddef.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

// libcrypto is opened when `serve` first checks a webhook's signature, not when storysite
// starts (Preview's LibCrypto): linked, it took half a millisecond of every run. These are the
// functions storysite calls, as found in the library.
struct storysite_crypto {
    void *hmac;
    void *evp_sha1;
};

// HMAC-SHA1 of `data` under `key` into `digest` (20 bytes): how Storyblok signs webhooks.
// Returns 1 on success, 0 on failure.
static inline int storysite_hmac_sha1(const struct storysite_crypto *crypto, const void *key, int key_length,
                                      const unsigned char *data, size_t length, unsigned char digest[20])
{
    unsigned int digest_length = 0;
    const EVP_MD *sha1 = ((__typeof__(&EVP_sha1))crypto->evp_sha1)();
    return ((__typeof__(&HMAC))crypto->hmac)(sha1, key, key_length, data, length, digest, &digest_length) != NULL
        && digest_length == 20;
}
