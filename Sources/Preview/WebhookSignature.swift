import CCrypto
import Foundation

/// The `webhook-signature` of Storyblok's webhooks: the hex HMAC-SHA1 of the raw body under
/// the webhook secret (OpenSSL's libcrypto, opened when first needed; see ``LibCrypto``).
public enum WebhookSignature {
    /// Why signatures cannot be checked on this machine (libcrypto could not be opened); nil
    /// when they can.
    public static var unavailability: String? {
        guard case .failure(let unavailable) = LibCrypto.shared else { return nil }
        return unavailable.reason
    }

    /// The lowercase hex HMAC-SHA1 of `body` under `secret`; empty when it cannot be made
    /// (see ``unavailability``).
    public static func hex(of body: [UInt8], secret: String) -> String {
        guard case .success(let crypto) = LibCrypto.shared else { return "" }
        var digest = [UInt8](repeating: 0, count: 20)
        let key = Array(secret.utf8)
        let succeeded = key.withUnsafeBytes { key in
            body.withUnsafeBufferPointer { body in
                storysite_hmac_sha1(crypto.functions, key.baseAddress, Int32(key.count), body.baseAddress, body.count, &digest)
            }
        }
        guard succeeded == 1 else { return "" }
        return digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Whether `signature` (hex, any case, surrounding spaces ignored) is that of `body` under
    /// `secret`, compared in constant time.
    public static func isValid(_ signature: String?, body: [UInt8], secret: String) -> Bool {
        guard let signature else { return false }
        let expected = Array(hex(of: body, secret: secret).utf8)
        let given = Array(signature.trimmingCharacters(in: .whitespaces).lowercased().utf8)
        guard !expected.isEmpty, given.count == expected.count else { return false }
        return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
