import Mustache
import StoryModel
import StoryRender
import Testing

@Suite("The Visual Editor's markers")
struct VisualEditorMarkersTests {
    /// A block's `_editable` as Storyblok's draft API writes it, with `options` inside.
    private static func comment(_ options: String) -> String { "<!--#storyblok#" + options + "-->" }

    @Test("the JSON inside _editable, written compactly, is data-blok-c; its id and uid are data-blok-uid")
    func derivation() {
        let attributes = VisualEditorMarkers.attributes(of: Self.comment(#"{"name": "hero", "space": "48408", "uid": "i-0562", "id": "12345"}"#))
        #expect(attributes == #"data-blok-c="{&quot;name&quot;:&quot;hero&quot;,&quot;space&quot;:&quot;48408&quot;,&quot;uid&quot;:&quot;i-0562&quot;,&quot;id&quot;:&quot;12345&quot;}" data-blok-uid="12345-i-0562""#)
    }

    @Test("values are escaped for the attribute, a numeric id is written as JavaScript writes it, a missing one as undefined")
    func escapingAndIds() {
        let escaped = VisualEditorMarkers.attributes(of: Self.comment(#"{"name": "a\"b<c>&'d", "uid": "u\"1", "id": 7}"#))
        #expect(escaped == #"data-blok-c="{&quot;name&quot;:&quot;a\&quot;b&lt;c&gt;&amp;&#39;d&quot;,&quot;uid&quot;:&quot;u\&quot;1&quot;,&quot;id&quot;:7}" data-blok-uid="7-u&quot;1""#)
        #expect(VisualEditorMarkers.attributes(of: Self.comment(#"{"uid": "x"}"#))?.hasSuffix(#"data-blok-uid="undefined-x""#) == true)
    }

    @Test("an _editable that holds no JSON object gives no attributes")
    func notJSON() {
        #expect(VisualEditorMarkers.attributes(of: "<!--#storyblok#not json-->") == nil)
        #expect(VisualEditorMarkers.attributes(of: Self.comment("[1, 2]")) == nil)
        #expect(VisualEditorMarkers.attributes(of: "") == nil)
    }

    private static let story = parseStory(#"""
        {"uuid": "u-home", "full_slug": "home", "name": "Home", "content": {"component": "page", "_uid": "root",
          "_editable": "<!--#storyblok#{\"uid\": \"root\", \"id\": \"1\"}-->",
          "body": [
            {"component": "hero", "_uid": "h", "headline": "Hi", "editable": "a field of the content",
             "_editable": "<!--#storyblok#{\"uid\": \"h\", \"id\": \"1\"}-->"},
            {"component": "hero", "_uid": "plain", "headline": "No marker"}
          ]}}
        """#)

    private static func render(editable: Bool) throws -> String {
        let templates = [
            "layout": "<main {{{editable}}}>{{$main}}{{/main}}</main>",
            "pages/default": "{{<layout}}{{$main}}{{#body}}{{>*component}}{{/body}}{{/main}}{{/layout}}",
            "components/hero": "<div {{{editable}}}>{{headline}}</div>",
        ]
        let renderer = PageRenderer(
            library: try TemplateLibrary(templates: templates), resolver: TestResolver(stories: [story]), editable: editable)
        return try renderer.render(story).html
    }

    @Test("with markers on, every block's {{{editable}}} writes its attributes; one without _editable writes nothing")
    func markedBlocks() throws {
        #expect(try Self.render(editable: true) == #"<main data-blok-c="{&quot;uid&quot;:&quot;root&quot;,&quot;id&quot;:&quot;1&quot;}" data-blok-uid="1-root">"#
            + #"<div data-blok-c="{&quot;uid&quot;:&quot;h&quot;,&quot;id&quot;:&quot;1&quot;}" data-blok-uid="1-h">Hi</div><div >No marker</div></main>"#)
    }

    @Test("with markers off, editable is empty, and a content field of that name is hidden either way")
    func unmarkedBlocks() throws {
        #expect(try Self.render(editable: false) == "<main ><div >Hi</div><div >No marker</div></main>")
    }
}
