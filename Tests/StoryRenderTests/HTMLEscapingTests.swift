import StoryRender
import Testing

@Suite("HTML escaping")
struct HTMLEscapingTests {
    @Test("text escapes the five HTML-significant characters")
    func text() {
        #expect(HTMLEscaping.text(#"<a href="x">Tom's & co</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom&#039;s &amp; co&lt;/a&gt;")
    }

    @Test("attributes escape quotes, apostrophes, ampersands and angle brackets")
    func attribute() {
        #expect(HTMLEscaping.attribute(#"" onmouseover='x' & <b>"#) == "&quot; onmouseover=&#39;x&#39; &amp; &lt;b&gt;")
    }

    @Test("strings without special characters come back unchanged, including non-ASCII")
    func unchanged() {
        #expect(HTMLEscaping.text("Grüße, 🚀 — ok") == "Grüße, 🚀 — ok")
        #expect(HTMLEscaping.text("") == "")
        #expect(HTMLEscaping.text("ü<ü") == "ü&lt;ü")
    }

    @Test("appending escapes onto existing output")
    func appending() {
        var output = "<p>"
        HTMLEscaping.appendText("1 < 2", to: &output)
        HTMLEscaping.appendAttribute("\"", to: &output)
        #expect(output == "<p>1 &lt; 2&quot;")
    }
}
