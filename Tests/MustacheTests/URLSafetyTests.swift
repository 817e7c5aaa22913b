import Mustache
import Testing

@Suite("URL safety")
struct URLSafetyTests {
    static let safeLinks = [
        "https://example.com/?a=1&b=2", "http://example.com", "/about", "../x", "#top", "?q=1", "about/", "",
        "mailto:jane@example.com", "tel:+4912345", "ftp://files.example.com", "https://example.com/%20x",
        "whatsapp://send?text=hi", "page:with:colons", "&amp;x", "100%",
    ]

    @Test("ordinary URLs are safe", arguments: safeLinks)
    func safe(_ url: String) {
        #expect(URLSafety.isSafeLink(url))
    }

    static let scriptLinks = [
        "javascript:alert(1)", "JAVASCRIPT:alert(1)", " \t\njavascript:alert(1)", "java\tscript:alert(1)",
        "java\u{0}script:alert(1)", "\u{1}\u{2}javascript:x", "jav\u{200B}ascript:x", "javascript\n:x",
        "&#106;avascript:x", "&#x6a;avascript:x", "&#X6A;avascript:x", "&#106&#97&#118&#97&#115&#99&#114&#105&#112&#116&#58x",
        "javascript&colon;x", "javascript&COLON;x", "java&NewLine;script:x", "&amp;#106;avascript:x",
        "%6A%61%76%61%73%63%72%69%70%74:x", "%26%23106;avascript:x",
        "vbscript:x", "VBScript:x", "livescript:x", "data:text/html,<script>alert(1)</script>", "DATA:text/html,x",
    ]

    @Test("script URLs and their obfuscations are refused", arguments: scriptLinks)
    func refused(_ url: String) {
        #expect(!URLSafety.isSafeLink(url))
        #expect(!URLSafety.isSafeImageSource(url))
    }

    @Test("images may use raster data URLs but not SVG ones")
    func imageData() {
        #expect(URLSafety.isSafeImageSource("data:image/png;base64,AAAA"))
        #expect(URLSafety.isSafeImageSource("data:image/webp;base64,AAAA"))
        #expect(!URLSafety.isSafeImageSource("data:image/svg+xml,<svg/onload=alert(1)>"))
        #expect(!URLSafety.isSafeLink("data:image/png;base64,AAAA"))
    }
}
