import Foundation
import Mustache
import StoryModel

/// The richtext settings of `storysite.json` (`"richtext"`).
public struct RichtextSettings: Sendable, Hashable {
    /// Whether richtext headings get an `id` slugged from their text, and pages see `page.toc`.
    public var headingIds: Bool

    public init(headingIds: Bool = false) {
        self.headingIds = headingIds
    }

    /// The settings as one text, for the build's key.
    public var fingerprintText: String { "headingIds=\(headingIds)" }
}

/// The headings of one page's own richtext fields, in document order, each with an `id`
/// unique within the page: `setup`, `setup-2`, …. Shared by every richtext field the page
/// prepares (also those inside `blok` nodes), so locked.
public final class HeadingOutline: @unchecked Sendable {
    /// One heading: its level (1–6), plain text and `id`.
    public struct Heading: Sendable, Hashable {
        public var level: Int
        public var text: String
        public var id: String

        public init(level: Int, text: String, id: String) {
            self.level = level
            self.text = text
            self.id = id
        }
    }

    private let lock = NSLock()
    private var list: [Heading] = []
    private var used = Set<String>()

    public init() {}

    /// Records a heading of `level` with plain `text`; returns its `id`, unique in this outline.
    public func add(level: Int, text: String) -> String {
        let base = Self.slug(text)
        return lock.withLock {
            var id = base
            var number = 2
            while used.contains(id) {
                id = base + "-" + String(number)
                number += 1
            }
            used.insert(id)
            list.append(Heading(level: level, text: text, id: id))
            return id
        }
    }

    /// The headings recorded so far, in document order.
    public var headings: [Heading] { lock.withLock { list } }

    /// `page.toc`: each heading's `level`, `text` and `href` (`#id`).
    public var toc: MustacheValue {
        .array(headings.map { heading in
            ["level": .number(Double(heading.level)), "text": .string(heading.text), "href": .string("#" + heading.id)]
        })
    }

    /// The slug of `text` (``TextSlug``); `section` when no letter or digit is left.
    public static func slug(_ text: String) -> String {
        TextSlug.slug(of: text) ?? "section"
    }
}
