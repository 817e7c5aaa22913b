@testable import Preview
import Testing

extension PreviewTests {
    @Suite("Webhook signatures")
    struct WebhookSignatureTests {
        @Test("the signature is the hex HMAC-SHA1 of the body (RFC 2202's and Wikipedia's vectors)")
        func vectors() {
            #expect(WebhookSignature.hex(of: Array("The quick brown fox jumps over the lazy dog".utf8), secret: "key")
                == "de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9")
            #expect(WebhookSignature.hex(of: Array("what do ya want for nothing?".utf8), secret: "Jefe")
                == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        }

        @Test("libcrypto is opened from its file when first needed; a file that cannot be opened is a reason that names it and the package to install")
        func libraryOpened() {
            #expect(WebhookSignature.unavailability == nil)
            guard case .failure(let missing) = LibCrypto.open("libstorysite-missing.so.0") else {
                Issue.record("a missing library opened")
                return
            }
            #expect(missing.reason.contains("libstorysite-missing.so.0") && missing.reason.hasSuffix("install the package libssl3"))
            guard case .failure(let lacking) = LibCrypto.open("libc.so.6") else {
                Issue.record("a library without libcrypto's functions opened")
                return
            }
            #expect(lacking.reason == "libc.so.6 has no HMAC; install the package libssl3")
        }

        @Test("only the exact signature of the exact body is valid; case and surrounding spaces do not matter")
        func validation() {
            let body = Array(#"{"action":"published","story_id":1}"#.utf8)
            let signature = WebhookSignature.hex(of: body, secret: "s3cret")
            #expect(WebhookSignature.isValid(signature, body: body, secret: "s3cret"))
            #expect(WebhookSignature.isValid(" " + signature.uppercased(), body: body, secret: "s3cret"))
            #expect(!WebhookSignature.isValid(signature, body: body + [32], secret: "s3cret"))
            #expect(!WebhookSignature.isValid(signature, body: body, secret: "s3cret2"))
            #expect(!WebhookSignature.isValid(String(signature.dropLast()), body: body, secret: "s3cret"))
            #expect(!WebhookSignature.isValid(nil, body: body, secret: "s3cret"))
            #expect(!WebhookSignature.isValid("", body: body, secret: "s3cret"))
        }
    }
}
