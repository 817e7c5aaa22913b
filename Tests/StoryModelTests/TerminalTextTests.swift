import StoryModel
import Testing

extension StoryModelTests {
    @Suite("Text printed to a terminal")
    struct TerminalTextTests {
        @Test("plain text, including other languages and emoji, is printed as it is")
        func plain() {
            for text in ["blog/post", "Über uns: 30 März", "日本語 🎉", "a\\nb"] { #expect(TerminalText.escaped(text) == text) }
        }

        @Test("line breaks, tabs, ESC, BEL, NUL, DEL, C1 controls and bidirectional overrides are escaped")
        func escaped() {
            #expect(TerminalText.escaped("a\nb\r\tc") == #"a\nb\r\tc"#)
            #expect(TerminalText.escaped("\u{1B}[31mred\u{7}\u{0}\u{7F}") == #"\u{1B}[31mred\u{7}\u{0}\u{7F}"#)
            #expect(TerminalText.escaped("\u{9B}2J \u{202E}txt.exe \u{2066}") == #"\u{9B}2J \u{202E}txt.exe \u{2066}"#)
            #expect(!TerminalText.escaped("x\n::error file=INJECTED::y").contains("\n"))
        }
    }
}
