import CCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// OpenSSL's libcrypto, opened from its file when a webhook's signature is first checked, not
/// linked (see `Sources/CCrypto/shim.h`): the functions ``WebhookSignature`` calls.
final class LibCrypto: @unchecked Sendable {
    // Safe to share: `functions` is written once, before the value is made, and then only read.
    let functions: UnsafeMutablePointer<storysite_crypto>

    private init(functions: storysite_crypto) {
        self.functions = .allocate(capacity: 1)
        self.functions.initialize(to: functions)
    }

    deinit {
        functions.deallocate()
    }

    /// The libcrypto of this process, opened from `libcrypto.so.3` (OpenSSL 3's soname) when
    /// first asked for; why it could not be, otherwise.
    static let shared = open("libcrypto.so.3")

    /// libcrypto opened from `file`, or why it could not be.
    static func open(_ file: String) -> Result<LibCrypto, Unavailable> {
        guard let library = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(Unavailable(reason: dlerror().map { String(cString: $0) } ?? file))
        }
        guard let hmac = dlsym(library, "HMAC"), let sha1 = dlsym(library, "EVP_sha1") else {
            dlclose(library)
            return .failure(Unavailable(reason: "\(file) has no HMAC or EVP_sha1"))
        }
        return .success(LibCrypto(functions: storysite_crypto(hmac: hmac, evp_sha1: sha1)))
    }

    /// Why libcrypto could not be opened, with the package that provides it.
    struct Unavailable: Error, CustomStringConvertible {
        var reason: String
        var description: String { "\(reason); install the package libssl3" }
    }
}
