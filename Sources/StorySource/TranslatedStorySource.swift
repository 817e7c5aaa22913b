import Foundation
import ParallelWork
import StoryModel

/// A local folder's stories as they read in one language (field-level translation, see
/// ``StoryModel/Story/translated(to:isDefault:)``): every story translated once, when the
/// source is made, then answered exactly as the folder answers (by `uuid`, numeric `id` and
/// `full_slug`, folder queries in `full_slug` order). A story keeps its default `full_slug` in
/// every language, so the content tree, listings and slug lookups are the same in each; its page
/// path in the language is ``StoryModel/Story/path(in:)``.
public struct TranslatedStorySource: InMemoryStorySource {
    /// The folder the stories come from.
    public let base: LocalFolderSource
    /// The language code (`de`).
    public let language: String
    /// Whether `language` is the space's default (whose stories only lose their `__i18n__` keys).
    public let isDefault: Bool
    private let index: StoryIndex

    /// Translates every story of `base` into `language`, on at most `jobs` threads.
    public init(base: LocalFolderSource, language: String, isDefault: Bool, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.base = base
        self.language = language
        self.isDefault = isDefault
        let stories = base.index.stories
        let translated = ParallelWork.map(count: stories.count, jobs: jobs) { position in
            stories[position].translated(to: language, isDefault: isDefault)
        }
        index = base.index.replacingStories(with: translated)
    }

    /// The folder's, with the language: `Content/ (de)`.
    public var description: String {
        "\(base.description) (\(language))"
    }

    public func stories(for references: [StoryReference]) async throws -> [StoryReference: Story] {
        var found: [StoryReference: Story] = [:]
        found.reserveCapacity(references.count)
        for reference in references {
            if let story = index.story(for: reference) { found[reference] = story }
        }
        return found
    }

    public func story(for reference: StoryReference) -> Story? {
        index.story(for: reference)
    }

    public func allStories() async throws -> [Story]? {
        index.stories
    }

    public func stories(answering query: StoryQuery) -> [Story] {
        index.stories(answering: query)
    }

    /// The file a story was read from, as shown in messages (`Content/blog/post.json`).
    public func file(ofStory uuid: String) -> String? {
        index.origin(of: uuid)?.file
    }
}
