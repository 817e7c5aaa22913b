import StoryRender
import Testing

@Suite("Richtext marks render like @storyblok/richtext")
struct RichtextMarkTests {
    static let marks: [Golden] = [
        Golden("bold", text("Bold", #"{"type":"bold"}"#), "<strong>Bold</strong>"),
        Golden("italic", text("Italic", #"{"type":"italic"}"#), "<em>Italic</em>"),
        Golden("strike", text("Strike", #"{"type":"strike"}"#), "<s>Strike</s>"),
        Golden("underline", text("Underline", #"{"type":"underline"}"#), "<u>Underline</u>"),
        Golden("code", text("code", #"{"type":"code"}"#), "<code>code</code>"),
        Golden("superscript", text("sup", #"{"type":"superscript"}"#), "<sup>sup</sup>"),
        Golden("subscript", text("sub", #"{"type":"subscript"}"#), "<sub>sub</sub>"),
        Golden("highlight without colour", text("Highlight", #"{"type":"highlight","attrs":{"color":null}}"#), "<mark>Highlight</mark>"),
        Golden("highlight with colour", text("Highlight", ##"{"type":"highlight","attrs":{"color":"#FFFF00"}}"##),
               ##"<mark style="background-color: #FFFF00;">Highlight</mark>"##),
        Golden("anchor", text("Anchored", #"{"type":"anchor","attrs":{"id":"section-1"}}"#), #"<span id="section-1">Anchored</span>"#),
        Golden("styled", text("Styled", #"{"type":"styled","attrs":{"class":"highlight"}}"#), #"<span class="highlight">Styled</span>"#),
        Golden("textStyle with colour", text("Red", #"{"type":"textStyle","attrs":{"color":"red","id":null,"class":null}}"#),
               #"<span style="color: red;">Red</span>"#),
        Golden("textStyle with class and id before the style",
               text("Red", ##"{"type":"textStyle","attrs":{"color":"#E72929","class":"big","id":"r"}}"##),
               ##"<span class="big" id="r" style="color: #E72929;">Red</span>"##),
        Golden("textStyle without attributes", text("Plain", #"{"type":"textStyle"}"#), "<span>Plain</span>"),
        Golden("first mark is innermost", text("Bold Italic", #"{"type":"bold"},{"type":"italic"}"#), "<em><strong>Bold Italic</strong></em>"),
        Golden("three marks", text("x", #"{"type":"code"},{"type":"bold"},{"type":"underline"}"#), "<u><strong><code>x</code></strong></u>"),
        Golden("unknown marks are ignored", text("x", #"{"type":"sparkle"},{"type":"bold"}"#), "<strong>x</strong>"),
        Golden("mark without type is ignored", text("x", #"{"attrs":{}}"#), "x"),
    ]

    @Test("each mark renders its golden HTML", arguments: marks)
    func markKind(_ golden: Golden) {
        #expect(renderRichtext(golden.input).html == golden.expected)
    }
}
