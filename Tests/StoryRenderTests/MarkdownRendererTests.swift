import StoryRender
import Testing

@Suite("Markdown through libcmark")
struct MarkdownRendererTests {
    @Test("CommonMark becomes HTML")
    func basics() {
        let html = MarkdownRenderer().render("# Title\n\nSome *emphasis* and `code`.\n\n- one\n- two\n").html
        #expect(html == "<h1>Title</h1>\n<p>Some <em>emphasis</em> and <code>code</code>.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n")
    }

    @Test("raw HTML is omitted by default and kept when unsafe is allowed")
    func rawHTML() {
        let markdown = "<script>alert(1)</script>\n\nText with <b onclick=\"x\">inline</b> HTML.\n"
        #expect(MarkdownRenderer().render(markdown).html
            == "<!-- raw HTML omitted -->\n<p>Text with <!-- raw HTML omitted -->inline<!-- raw HTML omitted --> HTML.</p>\n")
        #expect(MarkdownRenderer(unsafe: true).render(markdown).html
            == "<script>alert(1)</script>\n<p>Text with <b onclick=\"x\">inline</b> HTML.</p>\n")
    }

    @Test("destinations are rewritten before rendering")
    func rewrite() {
        var seen: [MarkdownRenderer.Destination] = []
        let result = MarkdownRenderer().render("[About](/about#team) and ![logo](/assets/logo.svg \"Logo\") and [ext](https://example.com)") { destination in
            seen.append(destination)
            return destination.url.hasPrefix("/") ? "../" + destination.url.dropFirst() : destination.url
        }
        #expect(result.html == #"<p><a href="../about#team">About</a> and <img src="../assets/logo.svg" alt="logo" title="Logo" /> and <a href="https://example.com">ext</a></p>"# + "\n")
        #expect(seen.map(\.url) == ["/about#team", "/assets/logo.svg", "https://example.com"])
        #expect(seen.map(\.isImage) == [false, true, false])
        #expect(result.refusedURLs.isEmpty)
    }

    @Test("script destinations are blanked and reported, also when raw HTML is allowed", arguments: [false, true])
    func scriptDestinations(unsafe: Bool) {
        let markdown = "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](&#106;avascript:alert(1)) ![d](data:text/html,x) <vbscript:x>"
        var rewritten: [String] = []
        let result = MarkdownRenderer(unsafe: unsafe).render(markdown) { rewritten.append($0.url); return $0.url }
        #expect(result.html == #"<p><a href="">a</a> <a href="">b</a> <a href="">c</a> <img src="" alt="d" /> <a href="">vbscript:x</a></p>"# + "\n")
        #expect(result.refusedURLs == ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "javascript:alert(1)", "data:text/html,x", "vbscript:x"])
        #expect(rewritten.isEmpty)
    }

    @Test("text is escaped")
    func escaping() {
        #expect(MarkdownRenderer().render("1 < 2 & \"3\"").html == "<p>1 &lt; 2 &amp; &quot;3&quot;</p>\n")
    }

    @Test("empty input renders nothing")
    func empty() {
        #expect(MarkdownRenderer().render("").html == "")
    }
}
