import StoryRender
import Testing

@Suite("Richtext content cannot inject markup or script")
struct RichtextEscapingTests {
    static let inert: [Golden] = [
        Golden("script in text", text(#"<script>alert(\"xss\")</script>"#),
               "&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;"),
        Golden("apostrophe and ampersand in text", text("Tom's & Jerry's"), "Tom&#039;s &amp; Jerry&#039;s"),
        Golden("entities in text stay literal", text("&lt;script&gt;&#60;b&#62;"), "&amp;lt;script&amp;gt;&amp;#60;b&amp;#62;"),
        Golden("quote breaking out of an href", text("x", link(#"https://example.com/\"onmouseover=\"alert(1)"#)),
               #"<a href="https://example.com/&quot;onmouseover=&quot;alert(1)">x</a>"#),
        Golden("quote breaking out of a target", text("x", link("/a", target: #"_blank\" onclick=\"alert(1)"#)),
               #"<a href="/a" target="_blank&quot; onclick=&quot;alert(1)">x</a>"#),
        Golden("apostrophe in an attribute", text("x", #"{"type":"anchor","attrs":{"id":"a' onfocus='b"}}"#),
               #"<span id="a&#39; onfocus=&#39;b">x</span>"#),
        Golden("markup in an anchor id", text("x", #"{"type":"anchor","attrs":{"id":"\"><script>alert(1)</script>"}}"#),
               #"<span id="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">x</span>"#),
        Golden("markup in a styled class", text("x", #"{"type":"styled","attrs":{"class":"a\"><img src=x onerror=alert(1)>"}}"#),
               #"<span class="a&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">x</span>"#),
        Golden("markup as an emoji", #"{"type":"emoji","attrs":{"name":"x","emoji":"<img src=x onerror=alert(1)>"}}"#,
               #"<span data-name="x" data-emoji="&lt;img src=x onerror=alert(1)&gt;">&lt;img src=x onerror=alert(1)&gt;</span>"#),
        Golden("markup in a code block class", #"{"type":"code_block","attrs":{"class":"\"><script>"},"content":[\#(text("<b>"))]}"#,
               #"<pre><code class="&quot;&gt;&lt;script&gt;">&lt;b&gt;</code></pre>"#),
        Golden("markup in image alt", #"{"type":"image","attrs":{"src":"https://e.com/a.png","alt":"\" onerror=\"alert(1)"}}"#,
               #"<img src="https://e.com/a.png" alt="&quot; onerror=&quot;alert(1)">"#),
        Golden("markup in image id", #"{"type":"image","attrs":{"id":"x\" onerror=\"alert(1)","src":"https://e.com/a.png"}}"#,
               #"<img id="x&quot; onerror=&quot;alert(1)" src="https://e.com/a.png">"#),
        Golden("event handler attributes on nodes are not written",
               #"{"type":"heading","attrs":{"level":1,"onmouseover":"alert(1)","style":"x"},"content":[\#(text("H"))]}"#, "<h1>H</h1>"),
    ]

    @Test("hostile content renders inert", arguments: inert)
    func inertContent(_ golden: Golden) {
        #expect(renderRichtext(golden.input).html == golden.expected)
    }

    static let scriptURLs: [String] = [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "  javascript:alert(1)",
        #"java\tscript:alert(1)"#,
        #"java\nscript:alert(1)"#,
        #"java\rscript:alert(1)"#,
        #"\u0001javascript:alert(1)"#,
        "javascript :alert(1)",
        "&#106;avascript:alert(1)",
        "&#x6A;avascript:alert(1)",
        "&#0000106avascript:alert(1)",
        "javascript&colon;alert(1)",
        "java&Tab;script:alert(1)",
        "%6Aavascript:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    ]

    @Test("script URLs never reach an href and are reported", arguments: scriptURLs)
    func scriptURL(_ url: String) {
        let (html, warnings) = renderRichtext(doc(paragraph(text("Link", link(url)))))
        #expect(html == "<p><a>Link</a></p>")
        #expect(warnings.map(\.kind) == [.unsafeURL])
        #expect(warnings.first?.fieldPath == "body[0].text.content[0].content[0].marks[0]")
    }

    @Test("a broken story link's saved URL is checked too")
    func brokenStoryLinkWithScript() {
        let (html, warnings) = renderRichtext(text("x", link("javascript:alert(1)", linktype: "story", uuid: "uuid-gone")))
        #expect(html == "<a>x</a>")
        #expect(warnings.map(\.kind) == [.brokenLink, .unsafeURL])
    }

    @Test("script in custom link attributes is dropped and reported")
    func customAttributes() {
        let custom = #"{"onmouseover":"alert(1)","ONCLICK":"alert(1)","x\" y":"1","formaction":"javascript:alert(1)","href":"javascript:alert(1)","rel":"nofollow","style":"position:fixed;background:url(https://evil.example/x)","id":"main","data-track":"javascript:alert(1)","aria-label":"Read more"}"#
        let (html, warnings) = renderRichtext(text("x", link("/a", custom: custom)))
        #expect(html == #"<a href="/a" rel="nofollow" aria-label="Read more">x</a>"#)
        #expect(warnings.count == 8)
    }

    @Test("image sources that could run script are dropped; raster data URLs are kept")
    func imageSources() {
        let script = renderRichtext(#"{"type":"image","attrs":{"src":"javascript:alert(1)","alt":"a"}}"#)
        #expect(script.html == #"<img alt="a">"#)
        #expect(script.warnings.map(\.kind) == [.unsafeURL])
        let svg = renderRichtext(#"{"type":"image","attrs":{"src":"data:image/svg+xml,<svg onload=alert(1)>"}}"#)
        #expect(svg.html == "<img>")
        let png = renderRichtext(#"{"type":"image","attrs":{"src":"data:image/png;base64,iVBORw0KGgo="}}"#)
        #expect(png.html == #"<img src="data:image/png;base64,iVBORw0KGgo=">"#)
    }

    static let hostileStyles: [String] = [
        #"red;position:fixed"#,
        #"red\" onmouseover=\"alert(1)"#,
        #"url(javascript:alert(1))"#,
        #"expression(alert(1))"#,
        #"red}body{display:none"#,
        #"\\72 ed"#,
    ]

    @Test("style values that could inject CSS are dropped and reported", arguments: hostileStyles)
    func hostileStyle(_ value: String) {
        let color = renderRichtext(text("x", #"{"type":"textStyle","attrs":{"color":"\#(value)"}}"#))
        #expect(color.html == "<span>x</span>")
        #expect(color.warnings.map(\.kind) == [.unsafeAttribute])
        let align = renderRichtext(#"{"type":"paragraph","attrs":{"textAlign":"\#(value)"}}"#)
        #expect(align.html == "<p></p>")
        let cell = renderRichtext(#"{"type":"tableCell","attrs":{"backgroundColor":"\#(value)"}}"#)
        #expect(cell.html == "<td></td>")
    }
}
