import Testing
import SiteOutput

extension SiteOutputTests {
    @Suite("Tag slugs")
    struct TagSlugTests {
        @Test("lower-cases letters and digits and makes every run of anything else one dash, none at the ends")
        func basics() {
            #expect(TagSlug.slug(for: "Swift") == "swift")
            #expect(TagSlug.slug(for: "  Swift  ") == "swift")
            #expect(TagSlug.slug(for: "Swift 6.3") == "swift-6-3")
            #expect(TagSlug.slug(for: "C++") == "c")
            #expect(TagSlug.slug(for: "a/b") == "a-b")
            #expect(TagSlug.slug(for: "snake_case -- and\\back.slash") == "snake-case-and-back-slash")
            #expect(TagSlug.slug(for: "--already-dashed--") == "already-dashed")
        }

        @Test("keeps letters and digits of every script, lower-cased and composed")
        func unicode() {
            #expect(TagSlug.slug(for: "Über Uns") == "über-uns")
            // Decomposed and precomposed spellings give the same bytes (String's == would hide the difference).
            #expect(TagSlug.slug(for: "U\u{0308}ber").map { Array($0.utf8) } == Array("\u{00FC}ber".utf8))
            #expect(TagSlug.slug(for: "\u{00DC}ber").map { Array($0.utf8) } == Array("\u{00FC}ber".utf8))
            #expect(TagSlug.slug(for: "ΕΛΛΗΝΙΚΆ") == "ελληνικά")
            #expect(TagSlug.slug(for: "日本語 タグ") == "日本語-タグ")
            #expect(TagSlug.slug(for: "हिन्दी") == "हिन्दी")
            #expect(TagSlug.slug(for: "٣ أرقام") == "٣-أرقام")
            #expect(TagSlug.slug(for: "🚀 Launch 🚀") == "launch")
        }

        @Test("tags differing only in case or punctuation share a slug")
        func merging() {
            let slugs = ["Swift", "swift", "Swift!", "SWIFT", "#swift", "(swift)"].map(TagSlug.slug(for:))
            #expect(Set(slugs) == ["swift"])
            #expect(TagSlug.slug(for: "Open Source") == TagSlug.slug(for: "open-source"))
        }

        @Test("nothing left gives nil")
        func empty() {
            for tag in ["", "   ", "!!!", "...", "/", "\u{0}", "\n\t", "🚀", "\u{0301}"] {
                #expect(TagSlug.slug(for: tag) == nil, "\(tag.debugDescription)")
            }
        }

        @Test("hostile names give safe slugs or nil")
        func hostile() {
            #expect(TagSlug.slug(for: "../x") == "x")
            #expect(TagSlug.slug(for: "..") == nil)
            #expect(TagSlug.slug(for: ".hidden") == "hidden")
            #expect(TagSlug.slug(for: "<script>alert(1)</script>") == "script-alert-1-script")
            #expect(TagSlug.slug(for: "a\u{0}b\nc\r\nd") == "a-b-c-d")
            #expect(TagSlug.slug(for: "a\u{200D}/b") == "a-b")
            #expect(TagSlug.slug(for: "C:\\Windows\\..\\x") == "c-windows-x")
            let tags = ["../x", "<script>alert(1)</script>", "", String(repeating: "x", count: 300), "!!!", "C++", "Über Uns",
                        "a/b", "a\u{0}b", "line\nbreak", "  Swift  ", "./.", "..\\..", "a\u{0301}/\u{0301}b", "%2e%2e%2f"]
            for tag in tags {
                guard let slug = TagSlug.slug(for: tag) else { continue }
                #expect(!slug.isEmpty && slug != "." && slug != "..", "\(tag.debugDescription)")
                #expect(!slug.hasPrefix(".") && !slug.hasPrefix("-") && !slug.hasSuffix("-"), "\(tag.debugDescription)")
                #expect(!slug.contains("/") && !slug.contains("\\"), "\(tag.debugDescription)")
                #expect(slug.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "<" && $0 != "%" }, "\(tag.debugDescription)")
                #expect(slug.utf8.count <= 100, "\(tag.debugDescription)")
            }
        }

        @Test("long tags are cut to 100 UTF-8 bytes on a character boundary, with no dash at the end")
        func length() {
            #expect(TagSlug.slug(for: String(repeating: "x", count: 300)) == String(repeating: "x", count: 100))
            // 33 three-byte characters fill 99 bytes; the 34th would pass 100.
            #expect(TagSlug.slug(for: String(repeating: "語", count: 60)) == String(repeating: "語", count: 33))
            // The dash before the word that does not fit is not kept.
            let wordy = String(repeating: "a", count: 99) + " bcd"
            #expect(TagSlug.slug(for: wordy) == String(repeating: "a", count: 99))
            let exact = String(repeating: "a", count: 98) + " b"
            #expect(TagSlug.slug(for: exact) == String(repeating: "a", count: 98) + "-b")
        }
    }
}
