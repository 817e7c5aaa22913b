import StoryModel

/// How a space holds its languages, as Storyblok offers it.
public enum TranslationStrategy: String, Sendable, Hashable {
    /// One story, its fields translated (`headline__i18n__de`).
    case field
    /// One tree of stories per language (`en/…`, `de/…`), translations linked by `alternates`
    /// or a shared `group_id`.
    case folder
}

/// One language of a multi-language site (`"languages": ["en", "de"]` in `storysite.json`):
/// the first is the default, whose home is the site root; every other language's home is at
/// its code (`de/`). With field-level translation a language's pages are under its code
/// (`de/ueber-uns/`); with folder-level translation they keep their folder paths.
public struct SiteLanguage: Sendable, Hashable {
    /// Storyblok's language code: `de`, `de-at`, `pt-br`.
    public var code: String
    public var isDefault: Bool
    public var strategy: TranslationStrategy

    public init(code: String, isDefault: Bool, strategy: TranslationStrategy = .field) {
        self.code = code
        self.isDefault = isDefault
        self.strategy = strategy
    }

    /// Where the language's home page goes: `""` for the default language, `de/` for another.
    var homeURL: String { isDefault ? "" : code + "/" }

    /// What the language's page paths start with: its home, with field-level translation;
    /// nothing with folder-level translation, whose paths hold the language's folder already.
    var urlPrefix: String { strategy == .field ? homeURL : "" }

    /// The folder of the language's stories, with folder-level translation (`de/`).
    var folder: String? { strategy == .folder ? code + "/" : nil }

    /// `story` as the language reads it: with field-level translation, its fields translated
    /// (see ``StoryModel/Story/translated(to:isDefault:)``); with folder-level translation, as it is.
    func reading(_ story: Story) -> Story {
        strategy == .field ? story.translated(to: code, isDefault: isDefault) : story
    }

    /// The version of `story` (as read from its file) that the language's crawl reads: see
    /// ``reading(_:)``; none for a story of another language's folder.
    func version(of story: Story) -> Story? {
        guard let folder else { return reading(story) }
        return story.fullSlug.hasPrefix(folder) ? story : nil
    }

    /// Whether `code` is a language code as Storyblok writes them: two or three lower-case
    /// letters, then optionally `-` and a region or variant (`de`, `de-at`, `pt-br`).
    public static func isValidCode(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ ("a"..."z").contains($0) }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        }
    }
}

extension SiteSettings {
    /// The languages to build, default first; one nil when the site has no languages (every
    /// page at its path, as before languages existed).
    var siteLanguages: [SiteLanguage?] {
        guard !languages.isEmpty else { return [nil] }
        return languages.enumerated().map { SiteLanguage(code: $1, isDefault: $0 == 0, strategy: translation) }
    }

    /// Whether a build remembers its crawl of `language` (see ``CrawlMemory``), to bring it up
    /// to date next time rather than crawl again: for a site without collections, in a language
    /// translated by field.
    func remembersCrawl(of language: SiteLanguage?) -> Bool {
        language?.strategy != .folder && collections.isEmpty
    }

    /// The codes of the languages whose crawls a build remembers (`nil` for a site without languages).
    var rememberedCrawlLanguages: [String?] {
        siteLanguages.filter(remembersCrawl(of:)).map { $0?.code }
    }

    /// The settings as one language's crawl and plan read them: with folder-level translation
    /// the entries, the global story, the listings' folders and the collections' folders are
    /// inside the language's folder (`home` is `de/home`, `blog/` is `de/blog/`).
    func scoped(to language: SiteLanguage?) -> SiteSettings {
        guard let folder = language?.folder else { return self }
        var scoped = self
        scoped.entries = entries.map { folder + Story.normalizedSlug($0) }
        scoped.global = folder + Story.normalizedSlug(global)
        scoped.listings = Dictionary(uniqueKeysWithValues: listings.map { key, value in
            (key == ListingSettings.tagsKey ? key : folder + key, value)
        })
        scoped.collections = collections.map { collection in
            var scopedCollection = collection
            scopedCollection.selection.folder = folder + collection.selection.folder
            return scopedCollection
        }
        return scoped
    }
}
