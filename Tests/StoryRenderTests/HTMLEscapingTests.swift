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

    @Test("runs between special characters are kept, at the start, middle and end")
    func runs() {
        #expect(HTMLEscaping.text("<") == "&lt;")
        #expect(HTMLEscaping.text("a<b>c&d\"e'f") == "a&lt;b&gt;c&amp;d&quot;e&#039;f")
        #expect(HTMLEscaping.attribute("&&") == "&amp;&amp;")
        #expect(HTMLEscaping.text("ends with <") == "ends with &lt;")
    }
}
