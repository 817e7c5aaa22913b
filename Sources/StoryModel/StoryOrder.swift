/// The sort order of a listing, as written in `storysite.json`: `"first_published_at desc"`,
/// `"content.priority desc, name"`.
///
/// The order is total and machine-independent: numbers (JSON numbers, or strings such as `"42"`)
/// compare numerically and come before text, text compares by Unicode scalar values (never by
/// locale), missing values sort last in either direction, and stories equal on every key are
/// ordered by `full_slug`, then `uuid`, so input order never shows in a listing.
public struct StoryOrder: Sendable, Hashable, CustomStringConvertible {
    /// What a term sorts by.
    enum Key: Sendable, Hashable {
        /// A field of the story object, named as Storyblok names it.
        case property(Property)
        /// A field of the story's root block.
        case content(String)

        var text: String {
            switch self {
            case .property(let property): return property.rawValue
            case .content(let field): return "content." + field
            }
        }
    }

    /// The story fields a listing can sort by.
    enum Property: String, Sendable, CaseIterable {
        case name, slug, fullSlug = "full_slug", position
        case createdAt = "created_at", publishedAt = "published_at", firstPublishedAt = "first_published_at"
    }

    /// One key and its direction.
    struct Term: Sendable, Hashable {
        var key: Key
        var descending: Bool
    }

    let terms: [Term]

    /// `position` ascending, then `full_slug`: the order of the content tree.
    public static let standard = StoryOrder(terms: [
        Term(key: .property(.position), descending: false), Term(key: .property(.fullSlug), descending: false),
    ])

    private init(terms: [Term]) {
        self.terms = terms
    }

    /// Reads an order: keys separated by commas, each optionally followed by `asc` or `desc`.
    /// Key names and directions are case-insensitive; a `content.` field name is kept as written.
    public init(parsing text: String) throws(StoryOrderError) {
        guard text.contains(where: { !$0.isWhitespace }) else { throw StoryOrderError(message: "the sort order is empty") }
        var terms: [Term] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let words = part.split(whereSeparator: \.isWhitespace)
            guard let keyWord = words.first else {
                throw StoryOrderError(message: "empty sort key in '\(text)': remove the extra comma")
            }
            guard words.count <= 2 else {
                throw StoryOrderError(message: "unexpected '\(words[2])' after '\(words[0]) \(words[1])': a sort key may be followed only by asc or desc")
            }
            terms.append(Term(key: try Self.key(String(keyWord)), descending: try Self.isDescending(words.dropFirst().first, key: keyWord)))
        }
        self.terms = terms
    }

    /// The canonical text: keys as documented, `desc` where descending, `asc` left out.
    public var description: String {
        terms.map { $0.descending ? $0.key.text + " desc" : $0.key.text }.joined(separator: ", ")
    }

    /// Whether the order reads the stories' content (a `content.` key), not their heads alone.
    public var readsContent: Bool {
        terms.contains { if case .content = $0.key { true } else { false } }
    }

    /// The stories in this order. Each story's sort values are read once, before sorting.
    public func sorted(_ stories: [Story]) -> [Story] {
        stories.map(sortValues).sorted(by: precedes).map(\.story)
    }

    /// Whether `a` comes before `b` in this order.
    public func areInIncreasingOrder(_ a: Story, _ b: Story) -> Bool {
        precedes(sortValues(a), sortValues(b))
    }

    // MARK: Parsing

    private static func key(_ word: String) throws(StoryOrderError) -> Key {
        let lowercased = word.lowercased()
        if let property = Property(rawValue: lowercased) { return .property(property) }
        if lowercased.hasPrefix("content."), word.count > "content.".count {
            return .content(String(word.dropFirst("content.".count)))
        }
        let names = Property.allCases.map(\.rawValue).joined(separator: ", ")
        throw StoryOrderError(message: "unknown sort key '\(word)'; use \(names) or content.<field>")
    }

    private static func isDescending(_ word: Substring?, key: Substring) throws(StoryOrderError) -> Bool {
        guard let word else { return false }
        switch word.lowercased() {
        case "asc": return false
        case "desc": return true
        default: throw StoryOrderError(message: "unknown sort direction '\(word)' after '\(key)'; use asc or desc")
        }
    }

    // MARK: Sorting

    /// A story with its sort values, one per term, read once.
    private struct Keyed {
        var story: Story
        var values: [SortValue]
    }

    private func sortValues(_ story: Story) -> Keyed {
        Keyed(story: story, values: terms.map { SortValue(of: story, key: $0.key) })
    }

    private func precedes(_ a: Keyed, _ b: Keyed) -> Bool {
        for (index, term) in terms.enumerated() {
            switch SortValue.compare(a.values[index], b.values[index], descending: term.descending) {
            case .before: return true
            case .after: return false
            case .same: continue
            }
        }
        switch compareUTF8(a.story.fullSlug, b.story.fullSlug) {
        case .before: return true
        case .after: return false
        case .same: return compareUTF8(a.story.uuid, b.story.uuid) == .before
        }
    }
}

/// A sort order that cannot be read; ``message`` says why and what is accepted.
public struct StoryOrderError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// How two values compare.
private enum Comparison {
    case before, same, after
}

/// One story's value for one sort key.
private enum SortValue {
    /// Absent, null, empty, or not a scalar: sorts last in either direction.
    case missing
    case number(Double)
    case text(String)

    init(of story: Story, key: StoryOrder.Key) {
        switch key {
        case .property(.name): self.init(text: story.name)
        case .property(.slug): self.init(text: story.slug)
        case .property(.fullSlug): self.init(text: story.fullSlug)
        case .property(.position):
            switch story.field("position") {
            case .number(let number)?: self = .number(number)
            case .string(let string)?: self = Self.plainDecimal(string).map(SortValue.number) ?? .missing
            default: self = .missing
            }
        case .property(let date): self.init(date: story.string(date.rawValue))  // created_at, published_at, first_published_at
        case .content(let field): self.init(json: story.contentField(field))
        }
    }

    private init(text: String) {
        self = text.isEmpty ? .missing : .text(text)
    }

    /// A date as Storyblok writes it (`2024-03-30T08:00:00.000Z` or `2024-03-30 08:00`), as the
    /// instant it names, so that both forms compare by time; text that is no date sorts as text.
    private init(date: String?) {
        guard let date, !date.isEmpty else {
            self = .missing
            return
        }
        self = StoryDate(date).map { .number(Double($0.secondsSinceEpoch)) } ?? .text(date)
    }

    private init(json: JSONValue?) {
        switch json {
        case .number(let number)?: self = .number(number)
        case .string(let string)?: self = Self.plainDecimal(string).map(SortValue.number) ?? SortValue(text: string)
        case .bool(let bool)?: self = .text(bool ? "true" : "false")
        default: self = .missing
        }
    }

    /// The number a string such as `42`, `-3` or `2.50` holds; nil for anything else (`1e3`,
    /// `nan`, ` 4`), so that text which merely parses as a number still sorts as text.
    private static func plainDecimal(_ string: String) -> Double? {
        var digits = Substring(string).utf8
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        let parts = digits.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let isPlain = (parts.count == 1 || parts.count == 2)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
        return isPlain ? Double(string) : nil
    }

    /// Numbers compare numerically and come before text; text compares by Unicode scalars
    /// (booleans are the text `false` and `true`, so false < true). Missing values come last
    /// whatever the direction; `descending` reverses the rest.
    static func compare(_ a: SortValue, _ b: SortValue, descending: Bool) -> Comparison {
        let ascending: Comparison
        switch (a, b) {
        case (.missing, .missing): return .same
        case (.missing, _): return .after
        case (_, .missing): return .before
        case (.number(let x), .number(let y)): ascending = x < y ? .before : (x > y ? .after : .same)
        case (.number, .text): ascending = .before
        case (.text, .number): ascending = .after
        case (.text(let x), .text(let y)): ascending = compareUTF8(x, y)
        }
        guard descending else { return ascending }
        switch ascending {
        case .before: return .after
        case .after: return .before
        case .same: return .same
        }
    }
}

/// Compares by UTF-8 bytes, which is Unicode scalar order: the same on every machine and locale.
private func compareUTF8(_ a: String, _ b: String) -> Comparison {
    var left = a.utf8.makeIterator()
    var right = b.utf8.makeIterator()
    while true {
        switch (left.next(), right.next()) {
        case (nil, nil): return .same
        case (nil, _): return .before
        case (_, nil): return .after
        case let (x?, y?) where x != y: return x < y ? .before : .after
        default: continue
        }
    }
}
