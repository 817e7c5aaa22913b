import Foundation
import StoryModel

/// Deterministic synthetic story spaces for benchmarks: N pages of about 6 KB each, every one
/// reachable from `home`, linked by UUID (richtext marks, teaser multilinks) and by slug
/// (Markdown). The same N always gives byte-identical files.
///
/// The content is kept apart from its JSON form in ``Page`` so that other writers (a Hugo site
/// for comparison, say) can lay out the same pages: title, subtitle, image, paragraphs with
/// links, teasers and a Markdown block.
public enum SyntheticSpace {
    /// One page's content, independent of any file format.
    public struct Page: Sendable {
        public var index: Int
        public var uuid: String
        /// `home` for page 0, `posts/post-<index>` otherwise.
        public var fullSlug: String
        public var title: String
        public var subtitle: String
        public var imageURL: String
        /// Five paragraphs of text runs, some of them links to other pages.
        public var paragraphs: [[Run]]
        /// Three teasers, each linking to another page.
        public var teasers: [Teaser]
        /// A Markdown text whose links name pages by path (`[text](/posts/post-123)`).
        public var markdown: String
    }

    /// A run of paragraph text; `link` is the index of the page it links to.
    public struct Run: Sendable {
        public var text: String
        public var link: Int?
    }

    /// A teaser card linking to the page with index `link`.
    public struct Teaser: Sendable {
        public var title: String
        public var text: String
        public var link: Int
    }

    /// The UUID of page `index` (UUID-shaped, derived from the index).
    public static func uuid(_ index: Int) -> String {
        let high = mix(UInt64(index), salt: 1)
        let low = mix(UInt64(index), salt: 2)
        let hex = String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
        let digits = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }

    /// When page `index` was first published: an hour after page `index - 1`, from the start of
    /// 2020, so a listing sorted by date has no ties.
    public static func firstPublishedAt(_ index: Int) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_577_836_800 + Double(index) * 3600))
    }

    /// The start page of the `posts/` folder, for builds that list the folder.
    public static let postsStartPageJSON = #"""
        {"story": {"name": "Posts", "uuid": "00000000-0000-4000-8000-000000000001", "slug": "posts", "full_slug": "posts/",
         "content": {"_uid": "posts-root", "component": "listing", "title": "All posts"}}}

        """#

    /// The `full_slug` of page `index`.
    public static func fullSlug(_ index: Int) -> String {
        index == 0 ? "home" : "posts/post-\(index)"
    }

    /// Page `index` of a space of `count` pages. Teasers link to the page's three children in a
    /// ternary tree (`3i+1`…`3i+3`), which makes every page reachable from `home`; the other
    /// links go to pseudo-random pages.
    public static func page(_ index: Int, of count: Int) -> Page {
        var random = Generator(seed: UInt64(index))
        func otherPage() -> Int { Int(random.next() % UInt64(count)) }
        func words(_ n: Int) -> String { (0..<n).map { _ in vocabulary[Int(random.next() % UInt64(vocabulary.count))] }.joined(separator: " ") }
        func title(_ n: Int) -> String { (0..<n).map { _ in titleVocabulary[Int(random.next() % UInt64(vocabulary.count))] }.joined(separator: " ") }

        let paragraphs: [[Run]] = (0..<5).map { _ in
            [Run(text: words(28) + " ", link: nil), Run(text: words(3), link: otherPage()), Run(text: " " + words(26) + ".", link: nil)]
        }
        let teasers = (1...3).map { child in
            let target = 3 * index + child
            return Teaser(title: title(4), text: words(22) + ".", link: target < count ? target : otherPage())
        }
        let markdown = (0..<3).map { _ in
            "## \(title(3))\n\n\(words(24)) [\(words(2))](/\(fullSlug(otherPage()))) \(words(10)).\n"
        }.joined(separator: "\n")
        return Page(
            index: index, uuid: uuid(index), fullSlug: fullSlug(index),
            title: title(5), subtitle: words(12),
            imageURL: "https://a.example.com/f/1/1200x630/\(String(mix(UInt64(index), salt: 3) % 0xFFFFFF, radix: 16))/hero.jpg",
            paragraphs: paragraphs, teasers: teasers, markdown: markdown)
    }

    /// The page as a content API response, `{"story": {...}}`: a `page` root block with a hero
    /// (title, subtitle, image asset), a richtext field, a grid of teasers with story
    /// multilinks and a markdown block.
    ///
    /// With several `languages` (the default first), every visible text field has its
    /// translation into each other language beside it, `"<field>__i18n__<lang>"` (the hero's
    /// title, subtitle and image with its alt text, the richtext document, the teasers' titles
    /// and texts, the Markdown text; see ``translation(of:to:languages:)``), an untranslated one
    /// as `""`, and the story has a `translated_slugs` entry for each other language (its
    /// ``path(_:in:languages:)`` and translated name). Blocks fields (`body`, `columns`) are not
    /// translated, as in Storyblok; the fields of the blocks inside them are.
    public static func storyJSON(_ page: Page, languages: [String] = []) -> String {
        let others = languages.dropFirst().map { (code: $0, page: translation(of: page, to: $0, languages: languages)) }
        var json = JSONText()
        /// `"<key>__i18n__<lang>": <value>` for each other language, each after a comma.
        func translations(_ key: String, _ write: (inout JSONText, Page, String) -> Void) {
            for other in others {
                json.raw(", "); json.string(key + "__i18n__" + other.code); json.raw(": ")
                write(&json, other.page, other.code)
            }
        }
        json.raw(#"{"story": {"name": "#); json.string(page.title)
        json.raw(#", "id": \#(page.index + 1), "uuid": "#); json.string(page.uuid)
        json.raw(#", "slug": "#); json.string(String(page.fullSlug.split(separator: "/").last!))
        json.raw(#", "full_slug": "#); json.string(page.fullSlug)
        json.raw(#", "published_at": "2024-05-01T10:00:00.000Z", "first_published_at": "#); json.string(firstPublishedAt(page.index))
        if !others.isEmpty {
            json.raw(#", "translated_slugs": ["#)
            for (number, other) in others.enumerated() {
                if number > 0 { json.raw(", ") }
                json.raw(#"{"path": "#); json.string(path(page.index, in: other.code, languages: languages))
                json.raw(#", "name": "#); json.string(other.page.title)
                json.raw(#", "lang": "#); json.string(other.code)
                json.raw("}")
            }
            json.raw("]")
        }
        json.raw(#", "tag_list": [], "content": {"_uid": "#); json.string(blockID(page.index, 0))
        json.raw(#", "component": "page", "body": [{"_uid": "#); json.string(blockID(page.index, 1))
        json.raw(#", "component": "hero", "title": "#); json.string(page.title)
        translations("title") { json, other, _ in json.string(other.title) }
        json.raw(#", "subtitle": "#); json.string(page.subtitle)
        translations("subtitle") { json, other, code in
            json.string(subtitleFallsBack(page.index, in: code, languages: languages) ? "" : other.subtitle)
        }
        json.raw(#", "image": "#); asset(of: page, into: &json)
        translations("image") { json, other, _ in asset(of: other, into: &json) }
        json.raw(#"}, {"_uid": "#); json.string(blockID(page.index, 2))
        json.raw(#", "component": "article", "text": "#); richtext(page.paragraphs, into: &json)
        translations("text") { json, other, _ in richtext(other.paragraphs, into: &json) }
        json.raw(#"}, {"_uid": "#); json.string(blockID(page.index, 3))
        json.raw(#", "component": "grid", "columns": ["#)
        for (number, teaser) in page.teasers.enumerated() {
            if number > 0 { json.raw(", ") }
            json.raw(#"{"_uid": "#); json.string(blockID(page.index, 4 + number))
            json.raw(#", "component": "teaser", "title": "#); json.string(teaser.title)
            translations("title") { json, other, _ in json.string(other.teasers[number].title) }
            json.raw(#", "text": "#); json.string(teaser.text)
            translations("text") { json, other, _ in json.string(other.teasers[number].text) }
            json.raw(#", "link": {"id": "#); json.string(uuid(teaser.link))
            json.raw(#", "url": "", "linktype": "story", "fieldtype": "multilink", "cached_url": "#); json.string(fullSlug(teaser.link))
            json.raw("}}")
        }
        json.raw(#"]}, {"_uid": "#); json.string(blockID(page.index, 7))
        json.raw(#", "component": "markdown", "text": "#); json.string(page.markdown)
        translations("text") { json, other, _ in json.string(other.markdown) }
        json.raw("}]}}}\n")
        return json.text
    }

    /// The hero image, an asset whose alt text is the page's title.
    private static func asset(of page: Page, into json: inout JSONText) {
        json.raw(#"{"id": \#(page.index + 1000), "alt": "#); json.string(page.title)
        json.raw(#", "name": "", "focus": null, "title": null, "filename": "#); json.string(page.imageURL)
        json.raw(#", "copyright": null, "fieldtype": "asset"}"#)
    }

    /// A richtext document of `paragraphs`, their links story links.
    private static func richtext(_ paragraphs: [[Run]], into json: inout JSONText) {
        json.raw(#"{"type": "doc", "content": ["#)
        for (number, paragraph) in paragraphs.enumerated() {
            if number > 0 { json.raw(", ") }
            json.raw(#"{"type": "paragraph", "content": ["#)
            for (position, run) in paragraph.enumerated() {
                if position > 0 { json.raw(", ") }
                json.raw(#"{"type": "text", "text": "#); json.string(run.text)
                if let link = run.link {
                    json.raw(#", "marks": [{"type": "link", "attrs": {"href": "#); json.string("/" + fullSlug(link))
                    json.raw(#", "uuid": "#); json.string(uuid(link))
                    json.raw(#", "anchor": null, "target": "_self", "linktype": "story"}}]"#)
                }
                json.raw("}")
            }
            json.raw("]}")
        }
        json.raw("]}")
    }

    /// Writes `count` pages into `folder` as `home.json` and `posts/<thousands>/post-<n>.json`
    /// (API response files in nested folders), on all cores, with translations into every
    /// language of `languages` after the first (see ``storyJSON(_:languages:)``). Returns the
    /// bytes written.
    @discardableResult
    public static func write(stories count: Int, to folder: URL, languages: [String] = []) throws -> Int {
        let groups = (count + 999) / 1000
        for group in 0..<groups {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("posts/\(group)", isDirectory: true), withIntermediateDirectories: true)
        }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var outcomes = [Result<Int, any Error>](repeating: .success(0), count: workers)
        outcomes.withUnsafeMutableBufferPointer { buffer in
            // Each worker writes only its own slot.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                slots[worker] = Result {
                    var bytes = 0
                    for index in stride(from: worker, to: count, by: workers) {
                        let path = index == 0 ? "home.json" : "posts/\(index / 1000)/post-\(index).json"
                        bytes += try writeFile(folder.path + "/" + path, storyJSON(page(index, of: count), languages: languages))
                    }
                    return bytes
                }
            }
        }
        return try outcomes.reduce(0) { try $0 + $1.get() }
    }

    /// Writes `text` to a new file without syncing it to disk (a benchmark's input need not
    /// survive a crash, and syncing ten thousand files takes seconds). Returns the bytes written.
    private static func writeFile(_ path: String, _ text: String) throws -> Int {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var text = text
        return try text.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let count = writeBytes(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                written += count
            }
            return written
        }
    }

    private static func blockID(_ page: Int, _ block: Int) -> String {
        uuid(page * 16 + block + 1_000_000)
    }

    static let vocabulary = """
        lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore \
        magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo \
        consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint \
        occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum story block \
        page link folder slug
        """.split(separator: " ").map(String.init)

    private static let titleVocabulary = vocabulary.map { $0.prefix(1).uppercased() + $0.dropFirst() }

    /// SplitMix64: a small, fast, deterministic generator.
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678 }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            return SyntheticSpace.mix(state, salt: 0)
        }
    }

    private static func mix(_ value: UInt64, salt: UInt64) -> UInt64 {
        var z = value &+ salt &* 0xD1B5_4A32_D192_ED03
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The C library's `write` (inside ``SyntheticSpace`` the name means `write(stories:to:)`).
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// JSON text built by appending: raw syntax, and strings escaped as JSON requires.
struct JSONText {
    var text = ""

    init() { text.reserveCapacity(8192) }

    mutating func raw(_ syntax: String) { text += syntax }

    mutating func string(_ value: String) {
        text += "\""
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case _ where scalar.value < 0x20: text += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
