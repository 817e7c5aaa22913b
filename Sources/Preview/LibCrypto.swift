import CCrypto
import LoadedLibrary

/// OpenSSL's libcrypto, opened from its file when a webhook's signature is first checked, not
/// linked (see `Sources/CCrypto/shim.h`): the functions ``WebhookSignature`` calls.
typealias LibCrypto = LoadedLibrary<storysite_crypto>

extension LoadedLibrary<storysite_crypto> {
    /// The libcrypto of this process, opened from `libcrypto.so.3` (OpenSSL 3's soname) when
    /// first asked for.
    static let shared = open("libcrypto.so.3")

    /// libcrypto opened from `file`, or why it could not be (with the package that provides it).
    static func open(_ file: String) -> Result<LibCrypto, Unavailable> {
        open(file) { symbol in storysite_crypto(hmac: symbol("HMAC"), evp_sha1: symbol("EVP_sha1")) }
            .mapError { Unavailable(reason: "\($0.reason); install the package libssl3") }
    }
}
