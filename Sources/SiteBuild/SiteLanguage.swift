/// One language of a multi-language site (`"languages": ["en", "de"]` in `storysite.json`):
/// the first is the default, whose pages are at the site root; every other language's pages
/// are under its code (`de/ueber-uns/`).
public struct SiteLanguage: Sendable, Hashable {
    /// Storyblok's language code: `de`, `de-at`, `pt-br`.
    public var code: String
    public var isDefault: Bool

    public init(code: String, isDefault: Bool) {
        self.code = code
        self.isDefault = isDefault
    }

    /// Where the language's pages go: `""` for the default language, `de/` for another.
    var urlPrefix: String { isDefault ? "" : code + "/" }

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
        return languages.enumerated().map { SiteLanguage(code: $1, isDefault: $0 == 0) }
    }
}
