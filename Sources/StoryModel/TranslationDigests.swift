import Foundation

/// The digests of a story's translations (``Story/translated(to:isDefault:)``), by language:
/// each is a function of the story as read from its file, so the build cache keeps them with
/// the file, and a rebuild translates an unchanged story without reading its content.
public final class TranslationDigests: @unchecked Sendable {
    // Safe to share: every access holds the lock.
    private let lock = NSLock()
    private var digests: [String: String]
    private var found = false

    init(_ digests: [String: String]) {
        self.digests = digests
    }

    /// Every digest known, by ``key(language:isDefault:)``.
    public var all: [String: String] { lock.withLock { digests } }

    /// Whether digests were found beyond those it was made with: what was kept of them is out of date.
    public var foundMore: Bool { lock.withLock { found } }

    func digest(for key: String) -> String? {
        lock.withLock { digests[key] }
    }

    func note(_ digest: String, for key: String) {
        lock.withLock {
            if digests.updateValue(digest, forKey: key) != digest { found = true }
        }
    }

    /// The key of a translation: the language's code, with ` default` for the default
    /// language (which is translated otherwise).
    static func key(language: String, isDefault: Bool) -> String {
        isDefault ? language + " default" : language
    }
}
