import Foundation

/// The digests of a story's translations (``Story/translated(to:isDefault:)``), by language:
/// each is a function of the story as read from its file, so the build cache keeps them with
/// the file, and a rebuild translates an unchanged story without reading its content.
public final class TranslationDigests: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var digests: [String: String]
    private var found = false
    /// Where to note, by its tag, that the story found more digests, when someone keeping the
    /// digests wants to know without asking every story (see ``TranslationsFound``).
    private let reporting: (found: TranslationsFound, tag: Int)?

    init(_ digests: [String: String], reporting: (found: TranslationsFound, tag: Int)? = nil) {
        self.digests = digests
        self.reporting = reporting
    }

    /// Every digest known, by ``key(language:isDefault:)``.
    public var all: [String: String] { lock.withLock { digests } }

    /// Whether digests were found beyond those it was made with: what was kept of them is out of date.
    public var foundMore: Bool { lock.withLock { found } }

    func digest(for key: String) -> String? {
        lock.withLock { digests[key] }
    }

    func note(_ digest: String, for key: String) {
        let foundFirst = lock.withLock {
            guard digests.updateValue(digest, forKey: key) != digest else { return false }
            defer { found = true }
            return !found
        }
        if foundFirst, let reporting { reporting.found.add(reporting.tag) }
    }

    /// The key of a translation: the language's code, with ` default` for the default
    /// language (which is translated otherwise).
    static func key(language: String, isDefault: Bool) -> String {
        isDefault ? language + " default" : language
    }
}

/// The tags of the stories, made with digests of their translations to report to it, that
/// found more digests since (``TranslationDigests/foundMore``): a cache that keeps the digests
/// of thousands of stories learns which of them are out of date without asking each.
public final class TranslationsFound: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var found: Set<Int> = []

    public init() {}

    /// The tags reported so far.
    public var tags: Set<Int> { lock.withLock { found } }

    func add(_ tag: Int) {
        lock.withLock { _ = found.insert(tag) }
    }
}
