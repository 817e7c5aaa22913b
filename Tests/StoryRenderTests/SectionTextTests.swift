import Foundation
import Testing
@testable import StoryRender

@Suite("Section text")
struct SectionTextTests {
    @Test("a section's text is trimmed as Foundation trims white space and line breaks, Unicode spaces included",
          arguments: ["{{date}}", "  {{date}}\n", "\t2024-03-30\r\n", "\u{00A0}x\u{2028}", "x\u{3000}", "\u{85}x", "", " ", "\n\n", "é", " é ", "a b"])
    func trimsAsFoundation(text: String) {
        #expect(text.trimmingSectionWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
